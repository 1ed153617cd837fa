import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../entities/api-key.entity';
import type { Actor } from './actor';
import { apiKeyByHash, deleteApiKey } from './auth.repository';
import type { CredentialCache } from './credential-cache';
import type { LastUses } from './last-uses';
import { randomToken, sha256 } from './secrets';
import { insertApiKey } from './credentials.repository';

export const API_KEY_PREFIX = 'imk_';

/**
 * API keys are random, shown once at creation and stored only as SHA-256 hashes. A verified key
 * is believed for a few seconds from the credential cache; deleting a key (or its agent, or its
 * account) empties it on every instance (docs/adr/0094-credential-cache.md).
 */
export class ApiKeyService {
  constructor(
    private readonly cache: CredentialCache | null = null,
    private readonly lastUses: LastUses | null = null,
  ) {}

  async create(em: EntityManager, userId: string, name: string, agentId: string | null = null): Promise<{ key: string; apiKey: ApiKey }> {
    const key = `${API_KEY_PREFIX}${randomToken(32)}`;
    const apiKey = new ApiKey();
    apiKey.userId = userId;
    apiKey.name = name;
    apiKey.agentId = agentId;
    apiKey.keyHash = sha256(key);
    await insertApiKey(em, apiKey);
    return { key, apiKey };
  }

  async verify(em: EntityManager, key: string): Promise<Actor | null> {
    const cacheKey = `k:${key}`;
    const cached = this.cache?.get(cacheKey);
    if (cached) return cached;
    const ticket = this.cache?.ticket() ?? 0;
    const row = await apiKeyByHash(em, sha256(key));
    if (!row) return null;
    // Written after the request (last-uses.ts), once the last mark is older than the interval.
    this.lastUses?.apiKey(row.id, row.last_used_at);
    const actor: Actor = { userId: row.user_id, credential: 'apiKey', apiKeyId: row.id, agentId: row.agent_id };
    this.cache?.set(cacheKey, actor, Number.POSITIVE_INFINITY, ticket);
    return actor;
  }

  /** Deletes one of the user's keys; it stops working at once on every instance. */
  async delete(em: EntityManager, id: string, userId: string): Promise<boolean> {
    const deleted = await deleteApiKey(em, id, userId);
    if (deleted) await this.cache?.revoked({ apiKeyIds: [id.toLowerCase()] });
    return deleted;
  }
}
