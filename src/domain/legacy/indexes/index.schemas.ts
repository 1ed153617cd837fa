import { z } from 'zod';
import { ethers } from '../../auth/wallet-libraries';
import { isCid } from '../cid.rules';

export const TITLE_MAX = 200;

const title = z.string().trim().max(TITLE_MAX, `At most ${TITLE_MAX} characters`);
const signerFunction = z.string().trim().refine(isCid, 'Not a CID');
const PRIVATE_KEY_SHAPE = /^0x[0-9a-fA-F]{64}$/;
const PUBLIC_KEY_SHAPE = /^0x(?:0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;

const isPoint = (v: string) => {
  try {
    ethers().SigningKey.computePublicKey(v, false);
    return true;
  } catch {
    return false;
  }
};

/**
 * Only a public key's own spellings are taken: ethers would also derive a public key from a
 * private one, and a private key sent here is a secret that must not be kept (nor repeated in
 * the answer).
 */
const signerPublicKey = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    if (PRIVATE_KEY_SHAPE.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'This is a private key (32 bytes); send the public key: 33 bytes starting 0x02 or 0x03, or 65 bytes starting 0x04' });
    } else if (!PUBLIC_KEY_SHAPE.test(v) || !isPoint(v)) {
      ctx.addIssue({ code: 'custom', message: 'Not a secp256k1 public key (0x-prefixed hex: 33 bytes starting 0x02 or 0x03, or 65 bytes starting 0x04)' });
    }
  });

/** The inputs of indexes; the GraphQL inputs and REST bodies derive from them (docs/adr/0124-one-schema-per-input.md). */
export const createIndexSchema = z.object({
  title: title.nullish(),
  signerPublicKey: signerPublicKey.nullish().meta({ description: 'Omitted: a secp256k1 key pair is generated' }),
  signerFunction: signerFunction.nullish().meta({ description: 'Must parse as a CID' }),
});

/** Omitted fields stay; `signerFunction: null` removes it. */
export const updateIndexSchema = z.object({
  title: title.nullish(),
  signerFunction: signerFunction.nullable().optional().meta({ description: 'null removes it' }),
});
