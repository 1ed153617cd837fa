import type { EntityManager } from '@mikro-orm/postgresql';
import { prepared, preparedRows } from '../../db/prepared';

/**
 * The statements of sessions, API keys, SIWE nonces and wallet identities. The email codes and
 * the device logins have theirs in email-code.repository.ts and device-login.repository.ts.
 */

/** Rows a `'run'` statement changed. */
const affected = (res: unknown) => (res as { affectedRows?: number }).affectedRows ?? 0;

export interface SessionRow {
  user_id: string;
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/**
 * Read on every credential check that misses the cache, prepared. It writes nothing: the last use
 * is written after the request, in batches (last-uses.ts, ADR 0134).
 */
const SESSION_CHECK = prepared('auth_session_check', `select user_id, token_hash, expires_at, revoked_at, last_used_at from sessions where id = ?`);

/** The session row, for the credential check. */
export async function checkSessionRow(em: EntityManager, sessionId: string): Promise<SessionRow | undefined> {
  const rows = await preparedRows<SessionRow>(em, SESSION_CHECK, [sessionId]);
  return rows[0];
}

/** Marks the sessions used now, those still live and not marked since `staleBefore` (another instance may have). */
export async function touchSessions(em: EntityManager, ids: string[], staleBefore: Date): Promise<void> {
  await em.getConnection().execute(
    `update sessions set last_used_at = now()
      where id = any(?::uuid[]) and revoked_at is null and expires_at > now()
        and (last_used_at is null or last_used_at < ?::timestamptz)`,
    [`{${ids.join(',')}}`, staleBefore],
    'run',
  );
}

/** Revokes one of the user's live sessions; false when there was none to revoke. */
export async function revokeSession(em: EntityManager, sessionId: string, userId: string): Promise<boolean> {
  const res = await em.execute<{ affectedRows?: number } | unknown[]>(
    `update sessions set revoked_at = now() where id = ? and user_id = ? and revoked_at is null`,
    [sessionId, userId],
    'run',
  );
  return affected(res) > 0;
}

/** Those of `ids` that name a session neither revoked nor expired. */
export async function liveSessionIds(em: EntityManager, ids: string[]): Promise<Array<{ id: string }>> {
  return em.execute<Array<{ id: string }>>(`select id from sessions where id in (${placeholders(ids.length)}) and revoked_at is null and expires_at > now()`, ids);
}

export interface ApiKeyRow {
  id: string;
  user_id: string;
  agent_id: string | null;
  last_used_at: Date | null;
}

const API_KEY_BY_HASH = prepared('auth_api_key_by_hash', `select id, user_id, agent_id, last_used_at from api_keys where key_hash = ?`);

export async function apiKeyByHash(em: EntityManager, keyHash: string): Promise<ApiKeyRow | undefined> {
  const rows = await preparedRows<ApiKeyRow>(em, API_KEY_BY_HASH, [keyHash]);
  return rows[0];
}

/** Marks the API keys used now, those not marked since `staleBefore`. */
export async function touchApiKeys(em: EntityManager, ids: string[], staleBefore: Date): Promise<void> {
  await em.getConnection().execute(
    `update api_keys set last_used_at = now() where id = any(?::uuid[]) and (last_used_at is null or last_used_at < ?::timestamptz)`,
    [`{${ids.join(',')}}`, staleBefore],
    'run',
  );
}

/** Deletes one of the user's keys; false when the user has no such key. */
export async function deleteApiKey(em: EntityManager, id: string, userId: string): Promise<boolean> {
  const res = await em.execute(`delete from api_keys where id = ? and user_id = ?`, [id, userId], 'run');
  return affected(res) > 0;
}

/** Those of `ids` that name a key still on record. */
export async function existingApiKeyIds(em: EntityManager, ids: string[]): Promise<Array<{ id: string }>> {
  return em.execute<Array<{ id: string }>>(`select id from api_keys where id in (${placeholders(ids.length)})`, ids);
}

/** Spent and expired nonces are of no further use; clearing them keeps the table small. */
export async function deleteExpiredSiweNonces(em: EntityManager): Promise<void> {
  await em.execute(`delete from siwe_nonces where expires_at < now()`, [], 'run');
}

/** Spends a live nonce; false when it is unknown, spent or expired. */
export async function spendSiweNonce(em: EntityManager, nonce: string): Promise<boolean> {
  const taken = await em.execute<Array<{ nonce: string }>>(
    `update siwe_nonces set used_at = now() where nonce = ? and used_at is null and expires_at > now() returning nonce`,
    [nonce],
  );
  return taken.length > 0;
}

export async function siweNonceUse(em: EntityManager, nonce: string): Promise<{ used_at: Date | null } | undefined> {
  const [row] = await em.execute<Array<{ used_at: Date | null }>>(`select used_at from siwe_nonces where nonce = ?`, [nonce]);
  return row;
}

/** The chain of the user's first wallet sign-in fixes their DID (wallet-identity.entity.ts); later ones change nothing. */
export async function recordWalletChain(em: EntityManager, userId: string, chainId: number): Promise<void> {
  await em.execute(
    `insert into wallet_identities (user_id, chain_id, created_at) values (?, ?, now()) on conflict (user_id) do nothing`,
    [userId, chainId],
    'run',
  );
}

/** The user's intents, read before the account goes so derived state can drop them after. */
export async function intentIdsOfUser(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await em.execute<Array<{ id: string }>>(`select id from intents where user_id = ?`, [userId]);
  return rows.map((r) => r.id);
}

/** `?, ?, …`: one placeholder per value of an `in (…)` list. */
function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
