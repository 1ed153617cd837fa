import { z } from 'zod';
import { SubscribeInput } from '../../graphql/accounts/misc.types';
import { ProfileUpdateInput } from '../../graphql/accounts/user.types';
import { list, str } from '../coerce';
import type { RouteTable } from '../route-table';
import { errorBody, inputFrom, opt, query, requestBody } from '../schemas/schema-kit';


export const accountRoutes: RouteTable = [
  { method: 'GET', path: '/api/auth/me', operation: 'Me', summary: 'The signed-in account', bodyAt: '' },
  {
    method: 'PATCH',
    path: '/api/auth/profile/update',
    operation: 'UpdateProfile',
    summary: 'Changes the sent profile fields only; socials replaces every saved link',
    request: { body: requestBody(ProfileUpdateInput) },
    variables: (r) => ({ input: inputFrom(r.body, ProfileUpdateInput) }),
    bodyAt: '',
  },
  {
    method: 'POST',
    path: '/api/auth/onboarding/confirm-profile',
    operation: 'ConfirmProfile',
    summary: 'Onboarding step one: confirms the profile (the first time is kept)',
  },
  {
    method: 'POST',
    path: '/api/auth/onboarding/complete',
    operation: 'CompleteOnboarding',
    summary: 'Onboarding step two: needs a confirmed profile and a first intent',
    request: { body: z.object({ intentId: opt(z.string()) }) },
    variables: (r) => ({ intentId: r.body.intentId ?? null }),
  },
  {
    method: 'GET',
    path: '/api/auth/providers',
    operation: 'AuthProviders',
    summary: 'The sign-in methods this server offers',
    bodyAt: '',
  },
  // Before /api/users/:userId, which would otherwise take "batch" for an id.
  {
    method: 'GET',
    path: '/api/users/batch',
    operation: 'UsersBatch',
    summary: 'Public fields of up to 100 users, in the order asked',
    request: { query: z.object({ ids: query.list('Comma-separated user ids (uuid)').unwrap() }) },
    variables: (r) => ({ ids: list(r.query.ids) }),
    bodyAt: '',
  },
  {
    method: 'GET',
    path: '/api/users/:userId',
    operation: 'PublicUser',
    summary: "A user's public profile",
    variables: (r) => ({ id: r.params.userId }),
    bodyAt: '',
  },
  {
    method: 'POST',
    path: '/api/subscribe',
    operation: 'Subscribe',
    summary: 'Newsletter or waitlist sign-up; a repeat updates it',
    request: { body: requestBody(SubscribeInput) },
    variables: (r) => ({ input: inputFrom(r.body, SubscribeInput) }),
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
