import { z } from 'zod';
import { UUID_RE } from '../shared/validation';

export const JOIN_POLICIES = ['anyone', 'invite_only'] as const;
export const ROLES = ['owner', 'member'] as const;

const title = z.string().trim().min(1, 'must not be empty').max(200);
const prompt = z.string().trim().max(4000);
/** An uploaded image (the storage route answers a root-relative path) or an absolute http(s) URL. */
const imageUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => v === '' || v.startsWith('/') || /^https?:\/\/[^\s]+$/i.test(v), 'must be an http(s) URL or a path on this server');
/**
 * Each input of the area, declared once: the GraphQL input types and the REST request schemas
 * are derived from these (docs/adr/0124-one-schema-per-input.md). The enums carry the name both
 * contracts give them, so the OpenAPI document keeps referring to one component.
 */
export const joinPolicySchema = z.enum(JOIN_POLICIES).meta({ id: 'JoinPolicy' });
const joinPolicy = joinPolicySchema;
export const roleSchema = z.enum(ROLES).meta({ id: 'NetworkRole' });
/** Empty text clears an optional field, like null. */
const emptyAsNull = (v: string | null | undefined) => (v === '' ? null : v);

export const createNetworkSchema = z.object({
  title,
  prompt: prompt.nullish().transform((v) => v || null),
  imageUrl: imageUrl.nullish().transform((v) => v || null),
  joinPolicy: joinPolicy.nullish().transform((v) => v ?? 'anyone').meta({ description: 'Default anyone' }),
});

/** PUT replaces what it names; an omitted field is kept, null or "" clears prompt and imageUrl. */
export const updateNetworkSchema = z.object({
  title: title.optional(),
  prompt: prompt.nullish().transform(emptyAsNull),
  imageUrl: imageUrl.nullish().transform(emptyAsNull),
  joinPolicy: joinPolicy.optional(),
});

/** Exactly one role, as `[owner]` or `[member]`. */
export const permissionsSchema = z
  .array(roleSchema)
  .length(1, 'must be [owner] or [member]')
  .transform((p) => p[0]);

export const uuidSchema = z.string().regex(UUID_RE, 'must be a uuid');

export const addMemberSchema = z.object({
  userId: uuidSchema,
  permissions: permissionsSchema.nullish().transform((r) => r ?? 'member').meta({ description: '[owner] or [member]; default [member]' }),
});

export const updateMemberSchema = z.object({ permissions: permissionsSchema.meta({ description: '[owner] or [member]' }) });

export const inviteSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('must be an email address').max(320)),
  name: z.string().trim().max(200).nullish().meta({ description: 'Used as the name of an account the invitation creates' }),
});

const requestText = z.string().trim().max(2000).nullish().transform((v) => (v === '' || v === undefined ? null : v));

export const createNetworkRequestSchema = z.object({
  name: title,
  purpose: requestText,
  audience: requestText,
  expectedSize: requestText,
  notes: requestText,
  joinPolicy: joinPolicy.nullish().transform((v) => v ?? null),
});

export const updateNetworkRequestSchema = z.object({
  name: title,
  purpose: z.string().trim().max(2000).nullish().transform(emptyAsNull).meta({ description: 'Omitted keeps it; null clears it' }),
});
