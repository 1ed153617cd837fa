import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeDraft } from './draft-signals';
import type { IntentPreparer, NewIntentIndexing, PreparationAnswer, RecoveryField } from './ports';
import { ProviderError } from '../shared/ports';
import type { Actor } from '../auth/actor';
import { Intent, type IntentStatus } from '../../entities/intent.entity';
import { appendEvent, writeWithEvent } from '../events/event-log';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import type { DomainHooks } from '../shared/domain-hooks';
import { badRequest, busy } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { intentArchived, intentNotFound, intentRejected, invalidPreparation, membershipRequired, preparationFailed } from './intent.errors';
import { intentCreatedFrame, intentLifecycleFrame } from './intent.frames';
import { requireOwnIntent, requireOwnIntentId } from './own-intent';
import {
  createSchema,
  DEFAULT_PAGE_SIZE,
  listSchema,
  MAX_DESCRIPTION,
  networkIdSchema,
  prepareSchema,
  statusSchema,
  updateSchema,
} from './intent.schemas';
import { addShare, lockIntent, memberNetworkIds, networkIdsByIntent, intentById, ownIntentsPage, removeShare, saveChanges, newIntentStatement } from './intents.repository';
import type { PreparationReceipts } from './preparation-receipt';
import { accessCondition, requireAccess, type AccessOptions } from '../access/require-access';
import type { IntentReading } from '../reading/intent-reader';

/** An intent is shared only where its owner is a member; an unknown network is refused the same way. */
const sharing: AccessOptions = { denied: membershipRequired, missing: membershipRequired };

export type PreparationResult =
  | { status: 'ready'; payload: string; summary: string; preparationReceipt: string }
  | { status: 'needs_revision'; payload: string; summary: string; feedback: string; recovery: RecoveryField[] };

/** A new intent and the networks it was shared into (the answer needs them; nothing reads them back). */
export interface CreatedIntent {
  intent: Intent;
  networkIds: string[];
}

export interface IntentPage {
  intents: Intent[];
  page: number;
  limit: number;
  total: number;
}

type Admitted = { payload: string; summary: string; reading?: IntentReading } & ({ status: 'ready' } | { status: 'needs_revision'; feedback: string; recovery: RecoveryField[] });

/**
 * Intents: preparation, publishing into networks, reads, edits, pause/resume, archive and
 * sharing. Every change writes its event frame in its own transaction and, once committed,
 * tells the other areas through the `intents.changed` hook; a new intent, which no other
 * record names yet, is indexed through `NewIntentIndexing` instead (docs/adr/0107).
 */
export class IntentService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly hooks: DomainHooks,
    private readonly preparer: IntentPreparer,
    private readonly receipts: PreparationReceipts,
    private readonly indexing: NewIntentIndexing,
  ) {
    super(core);
  }

  /** Resolves a uuid or short id among the user's own intents; anything else is 404. */
  async requireOwnedId(userId: string, idOrShortId: string): Promise<string> {
    return requireOwnIntentId(this.em, userId, idOrShortId);
  }

  /** The user's intent by uuid or short id (404 for anyone else's); for other areas too. */
  async requireOwned(userId: string, idOrShortId: string): Promise<Intent> {
    return requireOwnIntent(this.em, userId, idOrShortId);
  }

  /** Runs the preparer; a provider failure becomes a retryable 503 carrying `kept` back. */
  private async review(text: string, answers: PreparationAnswer[], kept: Record<string, unknown>): Promise<Admitted> {
    let verdict;
    try {
      verdict = await this.preparer.prepare(text, answers);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.logger.warn({ err: { message: err.message, status: err.status }, preparer: this.preparer.name }, 'intent preparation failed');
      throw preparationFailed(kept);
    }
    if (verdict.status === 'rejected') throw intentRejected(verdict.reason, verdict.detail);
    return verdict;
  }

  async prepare(actor: Actor, raw: unknown): Promise<PreparationResult> {
    const userId = actor.userId;
    const input = parseInput(prepareSchema, raw);
    const answers: PreparationAnswer[] = input.answers ?? [];
    // The reading stays in the service: it is no part of the answer.
    const { reading: _kept, ...verdict } = await this.review(input.payload, answers, { payload: input.payload, answers });
    if (verdict.payload.length > MAX_DESCRIPTION) {
      throw badRequest([{ path: 'answers', message: `the description with the answers exceeds ${MAX_DESCRIPTION} characters` }]);
    }
    if (verdict.status === 'needs_revision') return verdict;
    return { ...verdict, preparationReceipt: this.receipts.issue(userId, verdict.payload, verdict.summary) };
  }

  /**
   * Everything that needs no table runs first (the preparer, facets and embedding); the intent,
   * its networks, its index row and the `intent.created` frame are then written by one statement
   * (one transaction, with no BEGIN or COMMIT to send), and the index learns of it before the
   * answer, so discover finds it at once (docs/adr/0107). The statement carries the membership
   * check as its condition, so an in-process preparer's creation is one round trip; a refusal
   * is the same as before, and comes before any refusal of the text (ADR 0128).
   */
  async create(actor: Actor, raw: unknown): Promise<CreatedIntent> {
    const userId = actor.userId;
    const input = parseInput(createSchema, raw);
    const description = normalizeDraft(input.description);
    const requested = [...new Set((input.networkIds ?? []).map((id) => id.toLowerCase()))];
    const checkSharing = () => requireAccess(this.em, { userId }, 'network.member', requested, sharing);
    // A provider is called only for a member: a refused caller costs it nothing.
    if (!this.preparer.inProcess) await checkSharing();

    let admitted: { summary: string; reading?: IntentReading };
    try {
      admitted = await this.admit(userId, description, input.preparationReceipt ?? null);
    } catch (err) {
      // Membership decides first, as when it was checked before the text was read.
      if (this.preparer.inProcess) await checkSharing();
      throw err;
    }

    const indexEntry = await this.indexing.prepare(description, admitted.reading);
    const intent = new Intent();
    intent.userId = userId;
    intent.payload = description;
    intent.summary = admitted.summary;
    intent.sourceType = input.sourceType ?? null;
    intent.sourceId = input.sourceId ?? null;
    // Without named networks, every network of the user's: read for the write, which checks them too.
    let networkIds = requested.length > 0 ? requested : await memberNetworkIds(this.em, userId);
    for (let attempt = 1; ; attempt++) {
      const allowed = accessCondition({ userId }, 'network.member', networkIds);
      const written = await writeWithEvent(this.em, newIntentStatement(intent, networkIds, allowed, indexEntry.write(intent.id)), userId, intentCreatedFrame(intent));
      if (written !== null) break;
      // Not a member of every network: the check words the refusal. It finds none only when a
      // membership changed since the statement ran; the write is then made again, a few times.
      if (requested.length > 0) await checkSharing();
      else networkIds = await memberNetworkIds(this.em, userId);
      if (attempt === 3) throw busy();
    }
    try {
      await indexEntry.publish({ id: intent.id, userId, networkIds });
    } catch (err) {
      // The intent and its index row committed; the index catches up from the row (sync, start-up load).
      this.logger.error({ err, intentId: intent.id }, 'indexing a new intent failed after commit');
    }
    // The order a read gives: shared at one time, so by network id (networkIdsByIntent).
    return { intent, networkIds: [...networkIds].sort() };
  }

  /** The summary (and the preparer's reading) of a new intent's text, from its receipt or the preparer. */
  private async admit(userId: string, description: string, receipt: string | null): Promise<{ summary: string; reading?: IntentReading }> {
    if (receipt) {
      const checked = this.receipts.verify(receipt, userId, description);
      if ('problem' in checked) throw invalidPreparation(checked.problem);
      return { summary: checked.summary };
    }
    // Vagueness never blocks create: only a draft that cannot be admitted at all is refused.
    const verdict = await this.review(description, [], {});
    // The preparer's reading of the description, when it made one: indexing need not read it again.
    return { summary: verdict.summary, ...(verdict.payload === description && verdict.reading ? { reading: verdict.reading } : {}) };
  }

  async list(actor: Actor, raw: unknown): Promise<IntentPage> {
    const userId = actor.userId;
    const input = parseInput(listSchema, raw ?? {});
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const page = input.page ?? 1;
    const filter = { userId, archived: Boolean(input.archived), sourceType: input.sourceType, text: input.q?.trim() };
    const [intents, total] = await ownIntentsPage(this.em, filter, limit, (page - 1) * limit);
    return { intents, page, limit, total };
  }

  async get(actor: Actor, idOrShortId: string): Promise<Intent> {
    return this.requireOwned(actor.userId, idOrShortId);
  }

  /**
   * Rules 6 of the Intents section: a new description is prepared again (and may be refused),
   * a source-only change is written as sent, an omitted field is kept, null clears a source.
   */
  async update(actor: Actor, idOrShortId: string, raw: unknown): Promise<Intent> {
    const userId = actor.userId;
    const input = parseInput(updateSchema, raw);
    const id = await this.requireOwnedId(userId, idOrShortId);
    const current = await intentById(this.em, id);
    if (!current) throw intentNotFound();
    let prepared: { payload: string; summary: string } | null = null;
    if (input.description !== undefined) {
      const description = normalizeDraft(input.description);
      if (description !== current.payload) prepared = { payload: description, summary: (await this.review(description, [], {})).summary };
    }
    const intent = await this.em.transactional(async (tx) => {
      const row = await lockIntent(tx as EntityManager, id);
      if (prepared) {
        row.payload = prepared.payload;
        row.summary = prepared.summary;
      }
      if (input.sourceType !== undefined) row.sourceType = input.sourceType;
      if (input.sourceId !== undefined) row.sourceId = input.sourceId;
      row.updatedAt = new Date();
      await saveChanges(tx as EntityManager);
      return row;
    });
    await this.changed([id]);
    return intent;
  }

  async setStatus(actor: Actor, idOrShortId: string, raw: unknown): Promise<Intent> {
    const userId = actor.userId;
    const { status } = parseInput(statusSchema, raw);
    const id = await this.requireOwnedId(userId, idOrShortId);
    let moved = false;
    const intent = await this.em.transactional(async (tx) => {
      const row = await lockIntent(tx as EntityManager, id);
      if (row.archivedAt) throw intentArchived('its status can no longer change');
      if (row.status === status) return row;
      row.status = status as IntentStatus;
      await saveChanges(tx as EntityManager);
      await appendEvent(tx as EntityManager, userId, intentLifecycleFrame(row, status));
      moved = true;
      return row;
    });
    if (moved) await this.changed([id]);
    return intent;
  }

  /** Sets archivedAt and keeps the status; archiving again changes nothing. */
  async archive(actor: Actor, idOrShortId: string): Promise<Intent> {
    const userId = actor.userId;
    const id = await this.requireOwnedId(userId, idOrShortId);
    let moved = false;
    const intent = await this.em.transactional(async (tx) => {
      const row = await lockIntent(tx as EntityManager, id);
      if (row.archivedAt) return row;
      row.archivedAt = new Date();
      await saveChanges(tx as EntityManager);
      await appendEvent(tx as EntityManager, userId, intentLifecycleFrame(row, 'archived'));
      moved = true;
      return row;
    });
    if (moved) await this.changed([id]);
    return intent;
  }

  /** Shares into a network the caller belongs to; sharing again keeps the first share time. */
  async share(actor: Actor, idOrShortId: string, raw: unknown): Promise<Intent> {
    const userId = actor.userId;
    const networkId = parseInput(networkIdSchema, raw).networkId.toLowerCase();
    const id = await this.requireOwnedId(userId, idOrShortId);
    await requireAccess(this.em, { userId }, 'network.member', [networkId], sharing);
    let added = false;
    const intent = await this.em.transactional(async (tx) => {
      const row = await lockIntent(tx as EntityManager, id);
      if (row.archivedAt) throw intentArchived('it cannot be shared');
      added = await addShare(tx as EntityManager, id, networkId);
      return row;
    });
    if (added) await this.changed([id]);
    return intent;
  }

  /** Unsharing needs no membership: a member who left may still withdraw their intent. */
  async unshare(actor: Actor, idOrShortId: string, raw: unknown): Promise<Intent> {
    const userId = actor.userId;
    const networkId = parseInput(networkIdSchema, raw).networkId.toLowerCase();
    const intent = await this.requireOwned(userId, idOrShortId);
    if (await removeShare(this.em, intent.id, networkId)) await this.changed([intent.id]);
    return intent;
  }

  async networkIdsOf(intentIds: readonly string[]): Promise<Map<string, string[]>> {
    return networkIdsByIntent(this.em, intentIds);
  }

  private async changed(intentIds: string[]): Promise<void> {
    await this.hooks.emit('intents.changed', { intentIds });
  }
}
