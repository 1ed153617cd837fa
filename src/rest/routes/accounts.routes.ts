import { list, pick, str } from '../coerce';
import type { RouteTable } from '../route-table';

const PROFILE_FIELDS = ['name', 'intro', 'location', 'timezone', 'avatar', 'socials', 'notificationPreferences'];
const SUBSCRIBE_FIELDS = ['email', 'type', 'name', 'whatYouDo', 'whoToMeet'];

export const accountRoutes: RouteTable = [
  { method: 'GET', path: '/api/auth/me', operation: 'Me', body: (d) => ({ user: d.me }) },
  {
    method: 'PATCH',
    path: '/api/auth/profile/update',
    operation: 'UpdateProfile',
    variables: (r) => ({ input: pick(r.body, PROFILE_FIELDS) }),
    body: (d) => ({ user: d.updateProfile }),
  },
  { method: 'POST', path: '/api/auth/onboarding/confirm-profile', operation: 'ConfirmProfile' },
  {
    method: 'POST',
    path: '/api/auth/onboarding/complete',
    operation: 'CompleteOnboarding',
    variables: (r) => ({ intentId: r.body.intentId ?? null }),
  },
  { method: 'GET', path: '/api/auth/providers', operation: 'AuthProviders', body: (d) => ({ providers: d.authProviders }) },
  // Before /api/users/:userId, which would otherwise take "batch" for an id.
  { method: 'GET', path: '/api/users/batch', operation: 'UsersBatch', variables: (r) => ({ ids: list(r.query.ids) }), body: (d) => ({ users: d.users }) },
  { method: 'GET', path: '/api/users/:userId', operation: 'PublicUser', variables: (r) => ({ id: r.params.userId }), body: (d) => ({ user: d.user }) },
  { method: 'POST', path: '/api/subscribe', operation: 'Subscribe', variables: (r) => ({ input: pick(r.body, SUBSCRIBE_FIELDS) }) },
  {
    method: 'GET',
    path: '/api/docs',
    operation: 'Docs',
    variables: (r) => ({ topic: str(r.query.topic) ?? null }),
    body: (d) => (d.docs.topic ? { topic: d.docs.topic, content: d.docs.content } : { topics: d.docs.topics, content: d.docs.content }),
  },
];
