import { z } from 'zod';

/** Upper bound on a SIWE message; real ones are well under 2 KB. */
const MAX_SIWE_MESSAGE = 8 * 1024;

/**
 * Each input of the area, declared once: the GraphQL input types and the REST request schemas
 * are derived from these (docs/adr/0124-one-schema-per-input.md).
 */
export const siweVerifySchema = z.object({
  message: z.string().min(1).max(MAX_SIWE_MESSAGE).meta({ description: 'The EIP-4361 message as signed' }),
  signature: z.string().min(1).max(1024).meta({ description: 'EIP-191 signature of the message, 0x-prefixed hex' }),
});

/** Addresses are compared and stored lower-cased, so one mailbox is one account. */
export const emailSchema = z.string().trim().max(320).toLowerCase().pipe(z.email('Not a valid email address'));

export const emailStartSchema = z.object({ email: emailSchema });

export const emailVerifySchema = z.object({
  email: emailSchema,
  code: z.string().trim().regex(/^\d{6}$/, 'The code is 6 digits').meta({ description: 'The 6-digit code from the mail' }),
});

export const deviceApproveSchema = z.object({ userCode: z.string().max(64) });

export const deviceTokenSchema = z.object({ deviceCode: z.string().min(1).max(256) });

export const apiKeyCreateSchema = z.object({
  name: z.string().trim().min(1, 'A name is required').max(100),
  agentId: z.uuid('Not a valid agent id').nullish().meta({ description: 'One of your external agents: the key then acts as that agent' }),
});

export const sessionIdSchema = z.object({ sessionId: z.uuid('Not a valid session id') });
