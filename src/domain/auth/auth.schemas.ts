import { z } from 'zod';

/** Upper bound on a SIWE message; real ones are well under 2 KB. */
const MAX_SIWE_MESSAGE = 8 * 1024;

export const siweVerifySchema = z.object({
  message: z.string().min(1).max(MAX_SIWE_MESSAGE),
  signature: z.string().min(1).max(1024),
});

/** Addresses are compared and stored lower-cased, so one mailbox is one account. */
export const emailSchema = z.string().trim().max(320).toLowerCase().pipe(z.email('Not a valid email address'));

export const emailStartSchema = z.object({ email: emailSchema });

export const emailVerifySchema = z.object({
  email: emailSchema,
  code: z.string().trim().regex(/^\d{6}$/, 'The code is 6 digits'),
});

export const deviceApproveSchema = z.object({ userCode: z.string().max(64) });

export const deviceTokenSchema = z.object({ deviceCode: z.string().min(1).max(256) });

export const apiKeyCreateSchema = z.object({
  name: z.string().trim().min(1, 'A name is required').max(100),
  agentId: z.uuid('Not a valid agent id').nullish(),
});

export const sessionIdSchema = z.object({ sessionId: z.uuid('Not a valid session id') });
