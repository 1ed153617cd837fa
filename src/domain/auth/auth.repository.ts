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
 * Read on every credential check that misses the cache, prepared, and in the same statement the
 * session's last use written when the check will accept it and the last write is older than
 * `staleBefore` (what the service used to decide after the read and send as a second statement;
 * issue 17, ADR 0123). The row is read as it was before that write: the CTE's update is not
 * seen by the statement's own select.
 */
const SESSION_CHECK = prepared(
  'auth_session_check',
  `with touched as (
     update sessions set last_used_at = now()
      where id = ? and token_hash = ? and revoked_at is null and expires_at > ?::timestamptz
        and (last_used_at is null or last_used_at < ?::timestamptz)
     returning id)
   select user_id, token_hash, expires_at, revoked_at, last_used_at from sessions where id = ?`,
);

/** The session row; its last use is written too when `tokenHash` is its hash and it is live at `now` and last used before `staleBefore`. */
export async function checkSessionRow(em: EntityManager, sessionId: string, tokenHash: string, now: Date, staleBefore: Date): Promise<SessionRow | undefined> {
  const rows = await preparedRows<SessionRow>(em, SESSION_CHECK, [sessionId, tokenHash, now, staleBefore, sessionId]);
  return rows[0];
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

export async function touchApiKey(em: EntityManager, id: string): Promise<void> {
  await em.execute(`update api_keys set last_used_at = now() where id = ?`, [id]);
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
