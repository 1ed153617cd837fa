import type { Actor } from '../../auth/actor';
import { LegacyIndex } from '../../../entities/legacy-index.entity';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { badRequest } from '../../shared/errors';
import { isStreamId, newCommitId, newStreamId } from '../../shared/stream-id';
import { parseInput } from '../../shared/validation';
import { parsePkhDid } from '../did.rules';
import { legacyCaller, type LegacyCaller } from '../legacy-caller';
import { indexNotFound } from '../legacy.errors';
import { requireIndexController } from '../../access/legacy-index.policy';
import type { ItemIndexer } from '../items/item-indexer.service';
import { indexById, indexesByIds, itemIdsOfIndex, liveIndexesOfControllers, reloadIndex, saveIndex, softDeleteIndex } from './indexes.repository';
import { userByIdentity } from '../../accounts/users.repository';
import { createIndexSchema, updateIndexSchema } from './index.schemas';
import { mintSignerPublicKey, normalizePublicKey } from './signer-key';

/** Indexes: named contexts their controller (a DID) creates, edits and deletes (softly). */
export class IndexService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly indexer: ItemIndexer,
  ) {
    super(core);
  }

  /** Any index by id, a deleted one too (it reads with its deletedAt); 404 otherwise. */
  async get(id: string): Promise<LegacyIndex> {
    const index = isStreamId(id) ? await indexById(this.em, id) : null;
    if (!index) throw indexNotFound();
    return index;
  }

  /** An index that is not deleted; a deleted one is gone for every use but its own read. */
  async requireLive(id: string): Promise<LegacyIndex> {
    const index = await this.get(id);
    if (index.deletedAt) throw indexNotFound();
    return index;
  }

  /** A live index the caller controls: 404 when there is none, 403 for anyone else's. */
  async requireControlled(caller: LegacyCaller, id: string): Promise<LegacyIndex> {
    const index = await this.requireLive(id);
    requireIndexController(index, caller);
    return index;
  }

  async create(actor: Actor, input: unknown): Promise<LegacyIndex> {
    const caller = await legacyCaller(this.em, actor);
    const req = parseInput(createIndexSchema, input ?? {});
    const index = new LegacyIndex();
    index.id = newStreamId();
    index.version = newCommitId(index.id);
    index.title = req.title ?? '';
    index.signerFunction = req.signerFunction ?? null;
    index.signerPublicKey = req.signerPublicKey ? normalizePublicKey(req.signerPublicKey) : mintSignerPublicKey();
    index.controllerId = caller.userId;
    index.controllerDid = caller.did;
    await saveIndex(this.em, index);
    return index;
  }

  async update(actor: Actor, id: string, input: unknown): Promise<LegacyIndex> {
    const caller = await legacyCaller(this.em, actor);
    const index = await this.requireControlled(caller, id);
    const req = parseInput(updateIndexSchema, input ?? {});
    if (req.title !== undefined && req.title !== null) index.title = req.title;
    if (req.signerFunction !== undefined) index.signerFunction = req.signerFunction;
    index.updatedAt = new Date();
    index.version = newCommitId(index.id);
    await saveIndex(this.em, index);
    return index;
  }

  /**
   * Soft delete; deleting again answers the same tombstone. The write is conditional, so of
   * concurrent deletes one stamps the tombstone and every one answers it as stored. Its items
   * leave the vector index.
   */
  async delete(actor: Actor, id: string): Promise<LegacyIndex> {
    const caller = await legacyCaller(this.em, actor);
    const index = await this.get(id);
    requireIndexController(index, caller);
    if (index.deletedAt) return index;
    const won = await softDeleteIndex(this.em, index.id, newCommitId(index.id));
    await reloadIndex(this.em, index);
    if (won) await this.indexer.syncPoints(await itemIdsOfIndex(this.em, index.id));
    return index;
  }

  /**
   * The live indexes a DID controls, newest first. The DID is resolved to its wallet, so the
   * same account is found whichever chain id the DID names. Starring is not supported.
   */
  async byDid(did: string): Promise<LegacyIndex[]> {
    const parsed = parsePkhDid(did);
    if (!parsed) throw badRequest([{ path: 'did', message: 'Not a did:pkh:eip155 DID (did:pkh:eip155:<chainId>:<0x address>)' }]);
    const user = await userByIdentity(this.em, { walletAddress: parsed.address });
    return user ? liveIndexesOfControllers(this.em, [user.id]) : [];
  }

  /** Indexes by id in the order asked (null for unknown ids), for batch loaders. */
  async findMany(ids: readonly string[]): Promise<Array<LegacyIndex | null>> {
    const valid = [...new Set(ids.filter((id) => isStreamId(id)))];
    const rows = await indexesByIds(this.em, valid);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  }
}
