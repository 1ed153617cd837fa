import { z } from 'zod';

const optionalText = (max: number) => z.string().trim().max(max, `At most ${max} characters`).nullish();

/** The sign-up; the GraphQL input and the REST body derive from it (docs/adr/0124-one-schema-per-input.md). */
export const subscribeSchema = z.object({
  email: z.string().trim().max(320, 'At most 320 characters').pipe(z.email('Not a valid email address')),
  type: z.enum(['newsletter', 'waitlist'], 'type is newsletter or waitlist').nullish().meta({ description: 'newsletter (default) or waitlist' }),
  name: optionalText(200),
  whatYouDo: optionalText(2000),
  whoToMeet: optionalText(2000),
});

export type SubscribeInput = z.infer<typeof subscribeSchema>;
