import { z } from 'zod';
import { list, pick, str } from '../coerce';
import type { RouteTable } from '../route-table';
import { Account, BatchUser, PublicUser } from '../schemas/accounts.schemas';
import { errorBody, opt, query, SocialLink, SuccessFlag, timestamp, uuid } from '../schemas/schema-kit';

const PROFILE_FIELDS = ['name', 'intro', 'location', 'timezone', 'avatar', 'socials', 'notificationPreferences'];
const SUBSCRIBE_FIELDS = ['email', 'type', 'name', 'whatYouDo', 'whoToMeet'];

export const accountRoutes: RouteTable = [
  { method: 'GET', path: '/api/auth/me', operation: 'Me', summary: 'The signed-in account', response: z.object({ user: Account }), body: (d) => ({ user: d.me }) },
  {
    method: 'PATCH',
    path: '/api/auth/profile/update',
    operation: 'UpdateProfile',
    summary: 'Changes the sent profile fields only; socials replaces every saved link',
    request: {
      body: z.object({
        name: opt(z.string()),
        intro: opt(z.string()),
        location: opt(z.string()),
        timezone: opt(z.string().meta({ description: 'An IANA time zone name, or ""' })),
        avatar: opt(z.string().meta({ description: 'An http(s) URL, or ""' })),
        socials: opt(z.array(SocialLink)),
        notificationPreferences: opt(z.object({ opportunity: opt(z.boolean()), morningBrief: opt(z.boolean()) })),
      }),
    },
    response: z.object({ user: Account }),
    variables: (r) => ({ input: pick(r.body, PROFILE_FIELDS) }),
    body: (d) => ({ user: d.updateProfile }),
  },
  {
    method: 'POST',
    path: '/api/auth/onboarding/confirm-profile',
    operation: 'ConfirmProfile',
    summary: 'Onboarding step one: confirms the profile (the first time is kept)',
    response: z.object({ profileConfirmedAt: timestamp(), user: Account }),
  },
  {
    method: 'POST',
    path: '/api/auth/onboarding/complete',
    operation: 'CompleteOnboarding',
    summary: 'Onboarding step two: needs a confirmed profile and a first intent',
    request: { body: z.object({ intentId: opt(z.string()) }) },
    response: z.object({ completedAt: timestamp(), intentId: uuid() }),
    variables: (r) => ({ intentId: r.body.intentId ?? null }),
  },
  {
    method: 'GET',
    path: '/api/auth/providers',
    operation: 'AuthProviders',
    summary: 'The sign-in methods this server offers',
    response: z.object({ providers: z.array(z.object({ id: z.string(), name: z.string() })) }),
    body: (d) => ({ providers: d.authProviders }),
  },
  // Before /api/users/:userId, which would otherwise take "batch" for an id.
  {
    method: 'GET',
    path: '/api/users/batch',
    operation: 'UsersBatch',
    summary: 'Public fields of up to 100 users, in the order asked',
    request: { query: z.object({ ids: query.list('Comma-separated user ids (uuid)').unwrap() }) },
    response: z.object({ users: z.array(BatchUser) }),
    variables: (r) => ({ ids: list(r.query.ids) }),
    body: (d) => ({ users: d.users }),
  },
  {
    method: 'GET',
    path: '/api/users/:userId',
    operation: 'PublicUser',
    summary: "A user's public profile",
    response: z.object({ user: PublicUser }),
    variables: (r) => ({ id: r.params.userId }),
    body: (d) => ({ user: d.user }),
  },
  {
    method: 'POST',
    path: '/api/subscribe',
    operation: 'Subscribe',
    summary: 'Newsletter or waitlist sign-up; a repeat updates it',
    request: {
      body: z.object({
        email: z.string(),
        type: opt(z.string().meta({ description: 'newsletter (default) or waitlist' })),
        name: opt(z.string()),
        whatYouDo: opt(z.string()),
        whoToMeet: opt(z.string()),
      }),
    },
    response: SuccessFlag,
    variables: (r) => ({ input: pick(r.body, SUBSCRIBE_FIELDS) }),
  },
  {
    method: 'GET',
    path: '/api/docs',
    operation: 'Docs',
    summary: 'The service guides: the overview, or one topic',
    request: { query: z.object({ topic: query.string('identity-context, signals, communities-networks, opportunities, negotiations or workflows') }) },
    response: z.union([z.object({ topics: z.array(z.string()), content: z.string() }), z.object({ topic: z.string(), content: z.string() })]),
    errors: { 404: errorBody(['unknown_topic'], 'Unknown topic: the body lists the topics').extend({ topics: z.array(z.string()) }) },
    variables: (r) => ({ topic: str(r.query.topic) ?? null }),
    body: (d) => (d.docs.topic ? { topic: d.docs.topic, content: d.docs.content } : { topics: d.docs.topics, content: d.docs.content }),
  },
];
