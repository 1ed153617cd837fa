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

/**
 * Every field is optional and only sent fields change; an empty string clears a text field
 * (except name, which a person always has once they set it).
 */
export const profileUpdateSchema = z
  .object({
    name: z.string().trim().min(1, 'The name cannot be empty').max(PROFILE_LIMITS.name, `At most ${PROFILE_LIMITS.name} characters`),
    intro: text(PROFILE_LIMITS.intro),
    location: text(PROFILE_LIMITS.location),
    timezone: text(PROFILE_LIMITS.timezone).refine((tz) => tz === '' || isTimeZone(tz), 'Not an IANA time zone name (e.g. Europe/Berlin)'),
    avatar: z.union([
      z.literal(''),
      z
        .string()
        .trim()
        .max(PROFILE_LIMITS.avatar, `At most ${PROFILE_LIMITS.avatar} characters`)
        .pipe(z.url({ protocol: /^https?$/, error: 'An http(s) URL, or an empty string to remove it' })),
    ]),
    socials: z
      .array(
        z.object({
          label: z.string().trim().min(1, 'A label is required').max(PROFILE_LIMITS.socialLabel, `At most ${PROFILE_LIMITS.socialLabel} characters`),
          value: z.string().trim().min(1, 'A value is required').max(PROFILE_LIMITS.socialValue, `At most ${PROFILE_LIMITS.socialValue} characters`),
        }),
      )
      .max(PROFILE_LIMITS.socials, `At most ${PROFILE_LIMITS.socials} links`),
    notificationPreferences: z.object({
      opportunity: z.boolean().optional(),
      morningBrief: z.boolean().optional(),
    }),
  })
  .partial();

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** A batch read names at most this many users. */
export const USER_BATCH_MAX = 100;
