import { pick } from '../coerce';
import type { RouteTable } from '../route-table';

const ok = () => ({ success: true });

/** Sign-in (decisions.md 1) and the session-bound account routes (core-api.md). */
export const authRoutes: RouteTable = [
  { method: 'GET', path: '/api/auth/siwe/nonce', operation: 'SiweNonce' },
  { method: 'POST', path: '/api/auth/siwe/verify', operation: 'SiweVerify', variables: (r) => ({ input: pick(r.body, ['message', 'signature']) }) },
  { method: 'POST', path: '/api/auth/email/start', operation: 'EmailStart', variables: (r) => ({ input: pick(r.body, ['email']) }), status: 202, body: ok },
  { method: 'POST', path: '/api/auth/email/verify', operation: 'EmailVerify', variables: (r) => ({ input: pick(r.body, ['email', 'code']) }) },
  { method: 'POST', path: '/api/auth/device/code', operation: 'DeviceCode' },
  { method: 'POST', path: '/api/auth/device/approve', operation: 'DeviceApprove', variables: (r) => ({ input: pick(r.body, ['userCode']) }), body: ok },
  { method: 'POST', path: '/api/auth/device/token', operation: 'DeviceToken', variables: (r) => ({ input: pick(r.body, ['deviceCode']) }) },
  { method: 'POST', path: '/api/auth/api-keys', operation: 'CreateApiKey', variables: (r) => ({ input: pick(r.body, ['name', 'agentId']) }), status: 201 },
  { method: 'GET', path: '/api/auth/api-keys', operation: 'ApiKeys', body: (d) => ({ apiKeys: d.apiKeys }) },
  { method: 'DELETE', path: '/api/auth/api-keys/:id', operation: 'DeleteApiKey', variables: (r) => ({ id: r.params.id }), body: ok },
  { method: 'POST', path: '/api/auth/sign-out', operation: 'SignOut', body: ok },
  { method: 'GET', path: '/api/auth/devices', operation: 'Devices', body: (d) => ({ devices: d.devices }) },
  { method: 'POST', path: '/api/auth/devices/revoke', operation: 'RevokeDevice', variables: (r) => ({ input: pick(r.body, ['sessionId']) }), body: ok },
  { method: 'DELETE', path: '/api/auth/account', operation: 'DeleteAccount', body: ok },
];
