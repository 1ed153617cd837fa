import type { Actor } from './actor';
import type { ApiKeyService } from './api-key.service';
import { ApiKey } from '../../entities/api-key.entity';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { badRequest, notFound } from '../shared/errors';
import { isUuid, parseInput } from '../shared/validation';
import { apiKeyCreateSchema } from './auth.schemas';
import { requireAccess } from '../access/require-access';
import { apiKeysOf } from './credentials.repository';
import { agentTypeOf } from '../agents/agents.repository';

/** A user's API keys: created from a session (the key is shown once), listed, deleted. */
export class UserApiKeysService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly apiKeys: () => ApiKeyService,
  ) {
    super(core);
  }

  /** A key for one of the caller's external agents acts as that agent (core-api.md, Authentication 6). */
  async create(a: Actor, input: unknown): Promise<{ key: string; apiKey: ApiKey }> {
    const { name, agentId } = parseInput(apiKeyCreateSchema, input);
    if (agentId) {
      await requireAccess(this.em, a, 'agent.own', [agentId]);
      if ((await agentTypeOf(this.em, agentId.toLowerCase())) !== 'external') {
        throw badRequest([{ path: 'agentId', message: 'The hosted negotiator takes no API key; name one of your external agents' }]);
      }
    }
    return this.apiKeys().create(this.em, a.userId, name, agentId ?? null);
  }

  async list(a: Actor): Promise<ApiKey[]> {
    return apiKeysOf(this.em, a.userId);
  }

  /** Another user's key answers 404, like an unknown one. */
  async delete(a: Actor, id: string): Promise<void> {
    const deleted = isUuid(id) && (await this.apiKeys().delete(this.em, id, a.userId));
    if (!deleted) throw notFound('API key');
  }
}
