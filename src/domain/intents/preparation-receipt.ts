import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** How long a reviewed draft may wait before it is created. */
export const RECEIPT_TTL_MS = 24 * 60 * 60 * 1000;

interface ReceiptBody {
  v: 1;
  /** Owner of the review. */
  u: string;
  /** sha256 of the exact reviewed text. */
  h: string;
  /** The summary written at review, so create needs no second model call. */
  s: string;
  /** Expiry, epoch seconds. */
  e: number;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const textHash = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Preparation receipts: proof that this server reviewed this exact text for this account.
 * `<body>.<mac>`, the body being base64url JSON and the mac an HMAC-SHA256 under a key derived
 * from SESSION_SECRET (HKDF with its own label, so the key signs nothing else). Stateless:
 * every instance that shares the secret verifies every receipt.
 */
export class PreparationReceipts {
  private readonly key: Buffer;

  constructor(secret: string, private readonly ttlMs = RECEIPT_TTL_MS) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'intro-match', 'intent-preparation-receipt/v1', 32));
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest();
  }

  issue(userId: string, text: string, summary: string, now = Date.now()): string {
    const body: ReceiptBody = { v: 1, u: userId, h: textHash(text), s: summary, e: Math.floor((now + this.ttlMs) / 1000) };
    const encoded = b64(JSON.stringify(body));
    return `${encoded}.${b64(this.mac(encoded))}`;
  }

  /** The reviewed summary when the receipt is genuine, unexpired and bound to this user and text. */
  verify(receipt: string, userId: string, text: string, now = Date.now()): { summary: string } | { problem: string } {
    const [encoded, mac, extra] = receipt.split('.');
    if (!encoded || !mac || extra !== undefined) return { problem: 'The preparation receipt is malformed' };
    const expected = this.mac(encoded);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { problem: 'The preparation receipt was not issued by this service' };
    let body: ReceiptBody;
    try {
      body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as ReceiptBody;
    } catch {
      return { problem: 'The preparation receipt is malformed' };
    }
    if (body.u !== userId) return { problem: 'The preparation receipt belongs to another account' };
    if (body.h !== textHash(text)) return { problem: 'The preparation receipt was issued for a different description' };
    if (body.e * 1000 < now) return { problem: 'The preparation receipt has expired; prepare the draft again' };
    return { summary: body.s };
  }
}
