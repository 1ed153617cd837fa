import type { RouteTable } from '../route-table';

export const accountRoutes: RouteTable = [
  { method: 'GET', path: '/api/auth/me', operation: 'Me', body: (d) => ({ user: d.me }) },
  { method: 'GET', path: '/api/auth/providers', operation: 'AuthProviders', body: (d) => ({ providers: d.authProviders }) },
  { method: 'GET', path: '/api/users/:userId', operation: 'PublicUser', variables: (r) => ({ id: r.params.userId }), body: (d) => ({ user: d.user }) },
];
