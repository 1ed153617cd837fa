import { z } from 'zod';

/** Limits of the profile fields; generous for people, small enough to keep rows and cards sane. */
export const PROFILE_LIMITS = {
  name: 100,
  intro: 2000,
  location: 200,
  timezone: 64,
  avatar: 2048,
  socials: 20,
  socialLabel: 50,
  socialValue: 500,
} as const;

/** The fields PATCH /api/auth/profile/update accepts; any other body field is ignored. */
export const PROFILE_FIELDS = ['name', 'intro', 'location', 'timezone', 'avatar', 'socials', 'notificationPreferences'] as const;

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`);

/** A link on a profile: what it is and where it points (named: one shape in both contracts). */
export const socialLinkSchema = z
  .object({
  label: z.string().trim().min(1, 'A label is required').max(PROFILE_LIMITS.socialLabel, `At most ${PROFILE_LIMITS.socialLabel} characters`),
  value: z.string().trim().min(1, 'A value is required').max(PROFILE_LIMITS.socialValue, `At most ${PROFILE_LIMITS.socialValue} characters`),
  })
  .meta({ id: 'SocialLink' });

export const notificationPreferencesSchema = z.object({
  opportunity: z.boolean().optional(),
  morningBrief: z.boolean().optional(),
});

/**
 * Every field is optional and only sent fields change; an empty string clears a text field
 * (except name, which a person always has once they set it). The GraphQL input and the REST
 * body derive from it (docs/adr/0124-one-schema-per-input.md).
 */
export const profileUpdateSchema = z
  .object({
    name: z.string().trim().min(1, 'The name cannot be empty').max(PROFILE_LIMITS.name, `At most ${PROFILE_LIMITS.name} characters`),
    intro: text(PROFILE_LIMITS.intro),
    location: text(PROFILE_LIMITS.location),
    timezone: text(PROFILE_LIMITS.timezone)
      .refine((tz) => tz === '' || isTimeZone(tz), 'Not an IANA time zone name (e.g. Europe/Berlin)')
      .meta({ description: 'An IANA time zone name, or an empty string' }),
    avatar: z
      .union([
        z.literal(''),
        z
          .string()
          .trim()
          .max(PROFILE_LIMITS.avatar, `At most ${PROFILE_LIMITS.avatar} characters`)
          .pipe(z.url({ protocol: /^https?$/, error: 'An http(s) URL, or an empty string to remove it' })),
      ])
      .meta({ description: 'An http(s) URL (e.g. from uploadImage), or an empty string' }),
    socials: z.array(socialLinkSchema).max(PROFILE_LIMITS.socials, `At most ${PROFILE_LIMITS.socials} links`),
    notificationPreferences: notificationPreferencesSchema,
  })
  .partial();

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** A batch read names at most this many users. */
export const USER_BATCH_MAX = 100;
