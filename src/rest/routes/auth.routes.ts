import { z } from 'zod';
import { pick } from '../coerce';
import type { RouteTable } from '../route-table';
import { ApiKey, AuthPayload, Device } from '../schemas/accounts.schemas';
import { errorBody, opt, Success } from '../schemas/schema-kit';

const ok = () => ({ success: true });

/** Sign-in (decisions.md 1) and the session-bound account routes (core-api.md). */
export const authRoutes: RouteTable = [
  { method: 'GET', path: '/api/auth/siwe/nonce', operation: 'SiweNonce', summary: 'A single-use nonce for a SIWE message (valid 10 minutes)', response: z.object({ nonce: z.string() }) },
  {
    method: 'POST',
    path: '/api/auth/siwe/verify',
    operation: 'SiweVerify',
    summary: 'Signs in with a signed EIP-4361 message; creates the user on first sign-in',
    request: { body: z.object({ message: z.string().meta({ description: 'The EIP-4361 message as signed' }), signature: z.string().meta({ description: 'EIP-191 signature, 0x-prefixed hex' }) }) },
    response: AuthPayload,
    errors: { 401: errorBody(undefined, 'The message, nonce, domain, URI, times or signature do not hold; error says which') },
    variables: (r) => ({ input: pick(r.body, ['message', 'signature']) }),
  },
  {
    method: 'POST',
    path: '/api/auth/email/start',
    operation: 'EmailStart',
    summary: 'Mails a 6-digit sign-in code (to the server log when no mailer is set)',
    request: { body: z.object({ email: z.string() }) },
    response: Success,
    variables: (r) => ({ input: pick(r.body, ['email']) }),
    status: 202,
    body: ok,
  },
  {
    method: 'POST',
    path: '/api/auth/email/verify',
    operation: 'EmailVerify',
    summary: 'Signs in with the mailed code; creates the account on first sign-in',
    request: { body: z.object({ email: z.string(), code: z.string().meta({ description: 'The 6-digit code' }) }) },
    response: AuthPayload,
    errors: { 401: errorBody(undefined, 'No code pending, an incorrect or expired code, or too many attempts; error says which') },
    variables: (r) => ({ input: pick(r.body, ['email', 'code']) }),
  },
  {
    method: 'POST',
    path: '/api/auth/device/code',
    operation: 'DeviceCode',
    summary: 'Starts a command-line login (RFC 8628)',
    response: z.object({ deviceCode: z.string(), userCode: z.string(), verificationUri: z.string(), verificationUriComplete: z.string(), expiresIn: z.number().int(), interval: z.number().int() }),
  },
  {
    method: 'POST',
    path: '/api/auth/device/approve',
    operation: 'DeviceApprove',
    summary: 'Approves a command-line login with the code it shows (session only)',
    request: { body: z.object({ userCode: z.string() }) },
    response: Success,
    errors: { 404: errorBody(['not_found'], 'No pending device login has this code'), 409: errorBody(['already_approved', 'already_denied']) },
    variables: (r) => ({ input: pick(r.body, ['userCode']) }),
    body: ok,
  },
  {
    method: 'POST',
    path: '/api/auth/device/token',
    operation: 'DeviceToken',
    summary: 'Polls a command-line login: authorization_pending until approved, then a device session once',
    request: { body: z.object({ deviceCode: z.string() }) },
    response: AuthPayload,
    errors: { 400: errorBody(undefined, 'authorization_pending, expired_token, access_denied, or invalid_request with details') },
    variables: (r) => ({ input: pick(r.body, ['deviceCode']) }),
  },
  {
    method: 'POST',
    path: '/api/auth/api-keys',
    operation: 'CreateApiKey',
    summary: 'Creates an API key (session only); the key is shown this once',
    request: { body: z.object({ name: z.string(), agentId: opt(z.string().meta({ description: 'One of your external agents: the key then acts as that agent' })) }) },
    response: z.object({ key: z.string().meta({ description: 'Send as x-api-key; shown this once' }), apiKey: ApiKey }),
    errors: { 404: errorBody(['not_found'], 'agentId names no agent of yours') },
    variables: (r) => ({ input: pick(r.body, ['name', 'agentId']) }),
    status: 201,
  },
  { method: 'GET', path: '/api/auth/api-keys', operation: 'ApiKeys', summary: 'Your API keys (never the keys themselves)', response: z.object({ apiKeys: z.array(ApiKey) }), body: (d) => ({ apiKeys: d.apiKeys }) },
  { method: 'DELETE', path: '/api/auth/api-keys/:id', operation: 'DeleteApiKey', summary: 'Revokes an API key', response: Success, variables: (r) => ({ id: r.params.id }), body: ok },
  { method: 'POST', path: '/api/auth/sign-out', operation: 'SignOut', summary: 'Ends the session making this request', response: Success, body: ok },
  { method: 'GET', path: '/api/auth/devices', operation: 'Devices', summary: 'Your live sessions (session only)', response: z.object({ devices: z.array(Device) }), body: (d) => ({ devices: d.devices }) },
  {
    method: 'POST',
    path: '/api/auth/devices/revoke',
    operation: 'RevokeDevice',
    summary: 'Ends one of your sessions at once (session only)',
    request: { body: z.object({ sessionId: z.string() }) },
    response: Success,
    errors: { 404: errorBody(['not_found'], 'No session of yours has this id') },
    variables: (r) => ({ input: pick(r.body, ['sessionId']) }),
    body: ok,
  },
  { method: 'DELETE', path: '/api/auth/account', operation: 'DeleteAccount', summary: 'Deletes your account and everything it owns (session only)', response: Success, body: ok },
];
