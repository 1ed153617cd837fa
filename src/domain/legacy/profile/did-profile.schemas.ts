import { z } from 'zod';
import { PROFILE_LIMITS } from '../../accounts/profile.schemas';

const requiredString = (field: string) => ({
  error: (i: { input: unknown }) => (i.input === undefined || i.input === null ? `${field} is required` : `${field} must be a string`),
});

/** PATCH /api/profile: all three fields, as legacy-api.md gives them; avatar '' removes it. */
export const didProfileSchema = z.object({
  name: z
    .string(requiredString('name'))
    .trim()
    .min(1, 'The name cannot be empty')
    .max(PROFILE_LIMITS.name, `At most ${PROFILE_LIMITS.name} characters`)
    .meta({ description: 'Required' }),
  bio: z.string(requiredString('bio')).trim().max(PROFILE_LIMITS.intro, `At most ${PROFILE_LIMITS.intro} characters`).meta({ description: 'Required' }),
  avatar: z.string(requiredString('avatar')).trim().max(200).meta({ description: 'Required: a CID from upload_avatar, or empty to remove' }),
});
