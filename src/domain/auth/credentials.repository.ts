import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../entities/api-key.entity';
import { DeviceLogin } from '../../entities/device-login.entity';
import { Session } from '../../entities/session.entity';
import { SiweNonce } from '../../entities/siwe-nonce.entity';
import { User } from '../../entities/user.entity';

/** Writes and lists of the credentials an account holds (the reads that check them: auth.repository.ts). */

export async function insertSession(em: EntityManager, session: Session): Promise<void> {
  em.persist(session);
  await em.flush();
}

/** The account's sessions that are neither revoked nor expired, newest first. */
export async function activeSessionsOf(em: EntityManager, userId: string): Promise<Session[]> {
  return em.find(Session, { userId, revokedAt: null, expiresAt: { $gt: new Date() } }, { orderBy: { createdAt: 'desc', id: 'asc' } });
}

export async function insertApiKey(em: EntityManager, apiKey: ApiKey): Promise<void> {
  em.persist(apiKey);
  await em.flush();
}

/** The account's API keys, newest first. */
export async function apiKeysOf(em: EntityManager, userId: string): Promise<ApiKey[]> {
  return em.find(ApiKey, { userId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
}

/** Writes a new device login (a unique violation means its user code was drawn again). */
export async function insertDeviceLogin(em: EntityManager, login: DeviceLogin): Promise<void> {
  em.persist(login);
  await em.flush();
}

export async function insertSiweNonce(em: EntityManager, row: SiweNonce): Promise<void> {
  em.persist(row);
  await em.flush();
}

/** Deletes the account; the database cascades to what it owns. */
export async function deleteUser(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(User, { id: userId });
}
