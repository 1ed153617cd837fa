import { copyIntoRebuild, type ReindexProgress } from '../../vector/copy-into-rebuild';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import type { Embedder } from './ports';
import type { NewIntentIndexing, PreparedIndexEntry } from '../intents/ports';
import { fromBuffer, toBuffer } from './vectors';
import { IntentVector } from '../../entities/intent-vector.entity';
import type { JobQueue } from '../../jobs/job-queue';
import type { IndexedIntent, VectorIndex } from '../../vector/vector-index';

/** Where a batch writes: the index in service, or the copy a reindex fills. */
type IndexWriter = Pick<VectorIndex, 'upsert' | 'remove'>;

export type { ReindexProgress };
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { extractFacets, FACETS_VERSION, type Facets } from './facets.rules';
import { cutText } from '../shared/text-cut';
import {
  allIntentIds,
  backlogCount,
  changedSince,
  intentIdsOfUser,
  intentRows,
  newVectorWrite,
  pendingVectorIds,
  saveVectorRecords,
  stageVectorRecord,
  staleIntentIds,
  storedVectorsAfter,
  touchVectors,
  vectorRecordsOf,
  vectorsOf,
  vectorsTouchedSince,
  type IntentRow,
} from './matching.repository';
import { PeriodicTask } from '../../jobs/periodic-task';
import { ReadingsByHash } from './readings-by-hash';
import type { IntentReading } from '../reading/intent-reader';
import { databaseNow, SYNC_LOOKBACK_SECONDS } from '../shared/shared.repository';

/**
 * Readings kept per instance (ReadingsByHash). A reading takes about 1.1 KB of heap, 1.4 KB with
 * its keys, so this bound holds every text of a 100k-intent population in about 140 MB and never
 * more than about 210 MB (bench/README.md, "Matching").
 */
const KEPT_READINGS = 150_000;

export const EMBED_JOB = 'matching.embed';
export const SWEEP_JOB = 'matching.sweep';
const BATCH = 500;

/** The reading of stored facets, when they were made by the current version (else none is kept). */
function currentReading(facets: Facets | null | undefined): IntentReading | null {
  return facets?.v === FACETS_VERSION ? facets.reading : null;
}

/**
 * Keeps every intent's facets, vector and index entry in step with Postgres. The row in
 * `intent_vectors` is written first; the index is derived from it. When the embedding provider
 * fails the row stays `pending` (facets kept, nothing lost) and a job retries it.
 */
export class IntentIndexer extends DomainService implements NewIntentIndexing {
  private background: Promise<void> = Promise.resolve();
  private readonly syncTask = new PeriodicTask('matching index sync', () => this.sync(), this.logger);
  private watermark: Date | null = null;
  /**
   * The reading of every text this instance indexed or loaded, by text hash: discover ranks a
   * shortlist by these before it reads any row (ADR 0118). Filled wherever an entry goes into
   * the index with its facets at hand; discover adds what it reads.
   */
  readonly readings = new ReadingsByHash(KEPT_READINGS);

  constructor(
    core: CoreDeps,
    readonly embedder: Embedder,
    readonly index: VectorIndex,
    private readonly jobs: JobQueue,
  ) {
    super(core);
  }

  /** Runs `fn` with its own EntityManager unless one is bound (requests, jobs). */
  private withEm<T>(fn: (em: EntityManager) => Promise<T>): Promise<T> {
    if (RequestContext.getEntityManager()) return fn(this.em);
    return RequestContext.create(this.core.orm.em, () => fn(this.em));
  }

  textHash(text: string): string {
    return createHash('sha256').update(`${this.embedder.id}\n${FACETS_VERSION}\n${text}`).digest('hex');
  }

  /** A row's index entry; its reading, when given (current facets only), is kept for discover as the entry goes in. */
  private entry(row: IntentRow, vector: Float32Array, textHash: string | null, reading?: IntentReading | null): IndexedIntent {
    if (textHash && reading) this.readings.remember(row.id, textHash, reading);
    return {
      id: row.id,
      vector,
      userId: row.user_id,
      networkIds: row.network_ids,
      active: row.status === 'active' && !row.archived_at,
      ...(textHash ? { textHash } : {}),
    };
  }

  /**
   * Brings these intents' rows and index entries up to date: embeds changed text, refreshes
   * the payload (networks, owner, status) of the rest, and drops deleted intents.
   * Returns the ids still waiting for an embedding.
   */
  async indexIntents(ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const pending: string[] = [];
    for (let i = 0; i < unique.length; i += BATCH) pending.push(...(await this.indexBatch(unique.slice(i, i + BATCH))));
    if (pending.length) await this.jobs.send(EMBED_JOB, { intentIds: pending }, { retryLimit: 10, retryDelay: 30, retryBackoff: true });
    return pending;
  }

  /**
   * `rebuild`: the batch writes to a reindex's copy (`target`), and `force` embeds every intent
   * again even when its stored vector is current.
   */
  private async indexBatch(ids: string[], rebuild?: { target: IndexWriter; force: boolean }): Promise<string[]> {
    const target = rebuild?.target ?? this.index;
    return this.withEm(async (em) => {
      const rows = await intentRows(em, ids);
      const found = new Set(rows.map((r) => r.id));
      const gone = ids.filter((id) => !found.has(id));
      if (gone.length) await target.remove(gone);
      const stored = await vectorRecordsOf(em, rows.map((r) => r.id));
      const toEmbed: Array<{ row: IntentRow; hash: string; facets: Facets; record: IntentVector }> = [];
      const fresh: IndexedIntent[] = [];
      for (const row of rows) {
        const hash = this.textHash(row.payload);
        let record = stored.get(row.id);
        if (!rebuild?.force && record && record.textHash === hash && record.state === 'ready' && record.vector) {
          fresh.push(this.entry(row, fromBuffer(record.vector), hash, currentReading(record.facets)));
          continue;
        }
        const facets = record?.textHash === hash ? record.facets : extractFacets(row.payload);
        if (!record) {
          record = stageVectorRecord(em, { intentId: row.id, embedder: this.embedder.id, facets, textHash: hash, state: 'pending', attempts: 0, updatedAt: new Date() });
        }
        toEmbed.push({ row, hash, facets, record });
      }
      // Other instances' in-process indexes follow updated_at (sync): say the payload changed.
      // A rebuild changes no payload: it only copies.
      const unchanged = rebuild ? [] : fresh.map((f) => f.id);
      if (unchanged.length) await touchVectors(em, unchanged);
      const pending: string[] = [];
      if (toEmbed.length) {
        try {
          const vectors = await this.embedder.embed(toEmbed.map((t) => ({ text: t.row.payload, facets: t.facets })));
          toEmbed.forEach((t, k) => {
            Object.assign(t.record, { embedder: this.embedder.id, vector: toBuffer(vectors[k]), facets: t.facets, textHash: t.hash, state: 'ready', attempts: 0, lastError: null, updatedAt: new Date() });
            fresh.push(this.entry(t.row, vectors[k], t.hash, t.facets.reading));
          });
        } catch (err) {
          this.logger.warn({ err, intents: toEmbed.length }, 'embedding failed; intents kept for retry');
          for (const t of toEmbed) {
            // The old vector stays searchable until the new one exists; the row says it is stale.
            Object.assign(t.record, { facets: t.facets, textHash: t.hash, state: 'pending', attempts: t.record.attempts + 1, lastError: cutText(String((err as Error).message), 500), updatedAt: new Date() });
            // Its hash is the new text's: the stored facets (what discover ranks by) are the new text's.
            if (t.record.vector && t.record.embedder === this.embedder.id) fresh.push(this.entry(t.row, fromBuffer(t.record.vector), t.hash, t.facets.reading));
            pending.push(t.row.id);
          }
        }
        await saveVectorRecords(em);
      }
      if (fresh.length) await target.upsert(fresh);
      return pending;
    });
  }

  /**
   * A new intent (docs/adr/0107): facets and the embedding are made here, before the creating
   * transaction; the row is written in it as `ready`, or `pending` (facets kept) when the
   * embedder failed; after commit the intent goes into the index, or a retry job is queued. The
   * row commits with the intent, so a crash after commit loses nothing the in-process index
   * needs (it loads and follows these rows), and a pending row is retried by the sweep and at start.
   */
  async prepare(text: string, reading?: IntentReading): Promise<PreparedIndexEntry> {
    const facets = extractFacets(text, reading);
    const textHash = this.textHash(text);
    let vector: Float32Array | null = null;
    let lastError: string | null = null;
    try {
      [vector] = await this.embedder.embed([{ text, facets }]);
    } catch (err) {
      this.logger.warn({ err, intents: 1 }, 'embedding failed; intent kept for retry');
      lastError = cutText(String((err as Error).message), 500);
    }
    const embedder = this.embedder.id;
    return {
      write: (intentId) =>
        newVectorWrite({
          intentId,
          embedder,
          vector: vector ? toBuffer(vector) : null,
          facets,
          textHash,
          state: vector ? 'ready' : 'pending',
          attempts: vector ? 0 : 1,
          lastError,
        }),
      publish: async ({ id, userId, networkIds }) => {
        if (vector) {
          this.readings.remember(id, textHash, facets.reading);
          await this.index.upsert([{ id, vector, userId, networkIds, active: true, textHash }]);
        }
        else await this.jobs.send(EMBED_JOB, { intentIds: [id] }, { retryLimit: 10, retryDelay: 30, retryBackoff: true });
      },
    };
  }

  /** A member left a network: their intents' payload loses it at once. */
  async refreshUser(userId: string): Promise<void> {
    await this.withEm(async (em) => {
      await this.indexIntents(await intentIdsOfUser(em, userId));
    });
  }

  /** A network was deleted: intents that were shared there are re-read from Postgres. */
  async refreshNetwork(networkId: string): Promise<void> {
    const ids = await this.index.idsInNetwork(networkId);
    await this.indexIntents(ids);
  }

  /** Retries every pending row (the job's and the sweep's work). */
  async retryPending(): Promise<string[]> {
    const ids = await this.withEm(pendingVectorIds);
    return ids.length ? this.indexBatches(ids) : [];
  }

  private async indexBatches(ids: string[]): Promise<string[]> {
    const pending: string[] = [];
    for (let i = 0; i < ids.length; i += BATCH) pending.push(...(await this.indexBatch(ids.slice(i, i + BATCH))));
    return pending;
  }

  /**
   * Loads the in-process index from the stored vectors (at start), then embeds in the
   * background whatever has no current row: intents created while the service was down, rows
   * of another embedder or facet version, pending rows.
   */
  async load(options: { fromStore: boolean }): Promise<void> {
    if (options.fromStore) {
      await this.withEm(async (em) => {
        this.watermark = await databaseNow(em);
        let after = '00000000-0000-0000-0000-000000000000';
        for (;;) {
          const rows = await storedVectorsAfter(em, this.embedder.id, after, BATCH * 4);
          if (!rows.length) break;
          await this.index.upsert(rows.map((r) => this.entry(r, fromBuffer(r.vector), r.text_hash, r.facets_v === FACETS_VERSION ? r.reading : null)));
          after = rows[rows.length - 1].id;
        }
      });
    }
    this.background = this.catchUp().catch((err) => this.logger.error({ err }, 'matching catch-up failed'));
  }

  private async catchUp(): Promise<void> {
    const ids = await this.withEm((em) => staleIntentIds(em, this.embedder.id, FACETS_VERSION));
    if (ids.length) {
      this.logger.info({ intents: ids.length }, 'matching: embedding intents without a current vector');
      await this.indexBatches(ids);
    }
  }

  /** Intents waiting for a current vector: none yet, pending after a provider failure, or made by another embedder. */
  async backlog(): Promise<number> {
    return this.withEm((em) => backlogCount(em, this.embedder.id));
  }

  /**
   * Rebuilds the index from Postgres into a copy that replaces the index in service when it is
   * full (search keeps answering from the old one meanwhile); with `embed`, makes every vector
   * again (an intent whose new vector fails keeps its old one and waits for a retry). Intents
   * other processes changed while the copy was filled are indexed again after the switch.
   */
  async reindex(options: { embed: boolean; onProgress?: (p: ReindexProgress) => void }): Promise<{ indexed: number; pending: number }> {
    const startedAt = await this.withEm(databaseNow);
    const ids = await this.withEm(allIntentIds);
    const { copiedAt, pending } = await copyIntoRebuild(
      ids,
      BATCH,
      await this.index.rebuild(),
      (batch, target) => this.indexBatch(batch, { target, force: options.embed }),
      () => this.withEm(databaseNow),
      options.onProgress,
    );
    const changed = await this.withEm(async (em) =>
      (await changedSince(em, startedAt))
        .filter((r) => !copiedAt.has(r.id) || new Date(r.changed_at) > copiedAt.get(r.id)!)
        .map((r) => r.id),
    );
    if (changed.length) await this.indexBatches([...new Set(changed)]);
    if (pending.length) await this.jobs.send(EMBED_JOB, { intentIds: pending }, { retryLimit: 10, retryDelay: 30, retryBackoff: true });
    return { indexed: ids.length - pending.length, pending: pending.length };
  }

  /**
   * Follows changes made by other instances: every `intervalMs`, rows of `intent_vectors`
   * touched since the last look are re-read into this process's index. Idempotent; writes
   * nothing. Only the in-process index needs it (Qdrant is shared).
   */
  startSync(intervalMs: number): void {
    this.syncTask.start(intervalMs);
  }

  async sync(): Promise<number> {
    return this.withEm(async (em) => {
      if (!this.watermark) this.watermark = await databaseNow(em, SYNC_LOOKBACK_SECONDS);
      // A little overlap: a transaction may commit a row stamped just before the last look.
      const since = new Date(this.watermark.getTime() - 2_000);
      const rows = await vectorsTouchedSince(em, since, this.embedder.id);
      if (!rows.length) return 0;
      const ids = rows.map((r) => r.intent_id);
      const current = await intentRows(em, ids);
      const vectors = await vectorsOf(em, ids);
      const byId = new Map(vectors.map((v) => [v.intent_id, v]));
      await this.index.upsert(
        current
          .filter((r) => byId.get(r.id))
          .map((r) => {
            const v = byId.get(r.id)!;
            return this.entry(r, fromBuffer(v.vector), v.text_hash, v.facets_v === FACETS_VERSION ? v.reading : null);
          }),
      );
      // Raw rows carry timestamps as text.
      const latest = new Date(rows[rows.length - 1].updated_at);
      if (latest > this.watermark) this.watermark = latest;
      return rows.length;
    });
  }

  async stop(): Promise<void> {
    await this.syncTask.stop();
    await this.background;
  }

  /** Resolves when the start-up catch-up has finished (shutdown and tests wait on it). */
  idle(): Promise<void> {
    return this.background;
  }
}
