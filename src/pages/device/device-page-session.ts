import { parse, serialize } from 'cookie';
import { createHmac } from 'node:crypto';
import type { Request, Response } from 'express';
import { randomToken, safeEqual } from '../../auth/secrets';
import type { Config } from '../../config';

/** The page's own browser session: random, only for binding form tokens to this browser. */
export const PAGE_COOKIE = 'im_device_page';
/** The session the page signed the person in with; sent back only to /device. */
export const SIGNED_IN_COOKIE = 'im_device_session';
const PAGE_COOKIE_MAX_AGE_S = 60 * 60;
/** Long enough to decide; the session itself is revoked once the person decides or signs out. */
const SIGNED_IN_MAX_AGE_S = 30 * 60;
const SID_RE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Cookies and form tokens of the device approval page (docs/adr/0103-device-approval-page.md).
 * Each form carries a token that is an HMAC of the page cookie under SESSION_SECRET: a page on
 * another site can make the browser post a form, but it cannot read the page to learn the token.
 */
export class DevicePageSession {
  private readonly secure: boolean;

  constructor(private readonly config: Config) {
    this.secure = config.PUBLIC_URL.startsWith('https:');
  }

  private cookies(req: Request): Record<string, string | undefined> {
    return parse(req.headers.cookie ?? '');
  }

  private cookie(name: string, value: string, maxAge: number): string {
    return serialize(name, value, { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/device', maxAge });
  }

  /** The page cookie's id, set now when the browser has none (or a malformed one). */
  pageId(req: Request, res: Response): string {
    const given = this.cookies(req)[PAGE_COOKIE];
    if (given && SID_RE.test(given)) return given;
    const sid = randomToken(32);
    res.append('Set-Cookie', this.cookie(PAGE_COOKIE, sid, PAGE_COOKIE_MAX_AGE_S));
    return sid;
  }

  formToken(pageId: string): string {
    return createHmac('sha256', this.config.SESSION_SECRET).update(`device-page-form:${pageId}`).digest('base64url');
  }

  /** Whether a posted form came from a page this browser was served. */
  formTokenValid(req: Request): boolean {
    const sid = this.cookies(req)[PAGE_COOKIE];
    const token = typeof req.body?.csrf === 'string' ? req.body.csrf : '';
    return Boolean(sid && SID_RE.test(sid) && token && safeEqual(token, this.formToken(sid)));
  }

  signedInToken(req: Request): string | null {
    return this.cookies(req)[SIGNED_IN_COOKIE] ?? null;
  }

  keepSignedIn(res: Response, token: string): void {
    res.append('Set-Cookie', this.cookie(SIGNED_IN_COOKIE, token, SIGNED_IN_MAX_AGE_S));
  }

  forgetSignedIn(res: Response): void {
    res.append('Set-Cookie', this.cookie(SIGNED_IN_COOKIE, '', 0));
  }
}
