import { SigningKey } from 'ethers';
import { z } from 'zod';
import { isCid } from '../cid.rules';

export const TITLE_MAX = 200;

const title = z.string().trim().max(TITLE_MAX, `At most ${TITLE_MAX} characters`);
const signerFunction = z.string().trim().refine(isCid, 'Not a CID');
const signerPublicKey = z
  .string()
  .trim()
  .refine((v) => {
    try {
      SigningKey.computePublicKey(v, false);
      return true;
    } catch {
      return false;
    }
  }, 'Not a secp256k1 public key (0x-prefixed hex, compressed or not)');

export const createIndexSchema = z.object({
  title: title.nullish(),
  signerPublicKey: signerPublicKey.nullish(),
  signerFunction: signerFunction.nullish(),
});

/** Omitted fields stay; `signerFunction: null` removes it. */
export const updateIndexSchema = z.object({
  title: title.nullish(),
  signerFunction: signerFunction.nullable().optional(),
});
