import type { Actor } from '../auth/actor';
import { fromBuffer } from './vectors';
import type { JobQueue } from '../../jobs/job-queue';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { conflict } from '../shared/errors';
import { isUuid, parseInput } from '../shared/validation';
import { extractFacets, FACETS_VERSION, type Facets } from './facets.rules';
import { EMBED_JOB, SWEEP_JOB, type IntentIndexer } from './intent-indexer.service';
import { requireOwnIntentId } from '../intents/own-intent';
import { intentNotFound } from '../intents/intent.errors';
import { discoverSchema } from './matching.schemas';
import { readIntent, type IntentReading } from '../reading/intent-reader';
import { judgedScore, JUDGED } from './candidate-judge';
import type { CandidateJudge } from './ports';
import { rankCandidates } from './local-ranker';
import { DEFAULT_PARAMS } from './pair-score';
import { idfFrom } from './term-stats';
import { candidateRows, newestInNetworks, queryIntent, type CandidateRow, type QueryIntentRow } from './matching.repository';
import { ReadingsByHash } from './readings-by-hash';

export interface Counterparty {
  intentId: string;
  userId: string;
  name: string;
  statement: string;
  networkId: string;
  score: number;
}

/** The index narrows to this many candidates before the ranker reads them. */
const SHORTLIST = 300;

/**
 * Candidates' readings kept per instance (ReadingsByHash). A reading takes about 1.1 KB of heap,
 * 1.4 KB with its keys, so this bound holds every text of a 100k-intent population in about
 * 140 MB and never more than about 210 MB (bench/README.md, "Matching").
 */
const KEPT_READINGS = 150_000;

/**
 * The reading discover ranks by when a query text is given: words no cue introduces are what the
 * caller looks for; what the query does not state (its offer, place, constraints) comes from the
 * stored intent, and its need too when the query names none.
 */
export function combineReadings(query: IntentReading, intent: IntentReading): IntentReading {
  const seeks = Object.keys(query.seek).length > 0;
  return {
    ...intent,
    seek: seeks ? query.seek : intent.seek,
    give: { ...intent.give, ...query.give },
    refuse: [...new Set([...query.refuse, ...intent.refuse])],
    only: [...new Set([...query.only, ...intent.only])],
    seekHead: seeks ? query.seekHead : intent.seekHead,
    audience: seeks ? query.audience : intent.audience,
    places: query.places.length ? query.places : intent.places,
    constraints: {
      values: { ...intent.constraints.values, ...query.constraints.values },
      refused: { ...intent.constraints.refused, ...query.constraints.refused },
      strict: [...new Set([...query.constraints.strict, ...intent.constraints.strict])],
      money: query.constraints.money.length ? query.constraints.money : intent.constraints.money,
      amounts: query.constraints.amounts.length ? query.constraints.amounts : intent.constraints.amounts,
    },
  };
}

/** Discover: ranks counterparties for one of the caller's intents. Reads only. */
export class MatchingService extends DomainService {
  constructor(
    core: CoreDeps,
    readonly indexer: IntentIndexer,
    private readonly jobs: JobQueue,
    /** A model that judges the best candidates pairwise (provider deployments); null: the local order stands. */
    private readonly judge: CandidateJudge | null = null,
  ) {
    super(core);
  }

  private readonly readings = new ReadingsByHash(KEPT_READINGS);

  /** For the intents area: call after intents were created or changed (the hook does the same). */
  indexIntents(intentIds: string[]): Promise<string[]> {
    return this.indexer.indexIntents(intentIds);
  }

  registerJobs(): void {
    this.jobs.register<{ intentIds?: string[] }>({
      name: EMBED_JOB,
      retryLimit: 10,
      handler: async (data) => {
        const pending = await this.indexer.indexIntents(data.intentIds ?? []);
        if (pending.length) throw new Error(`${pending.length} intents still wait for an embedding`);
      },
    });
    this.jobs.register({ name: SWEEP_JOB, cron: '*/10 * * * *', handler: async () => void (await this.indexer.retryPending()) });
  }

  async discover(a: Actor, intentId: string, raw: unknown): Promise<Counterparty[]> {
    const input = parseInput(discoverSchema, raw);
    const em = this.em;
    // A full id needs no resolving: the one statement below checks it is the caller's.
    const given = intentId.trim().toLowerCase();
    const id = isUuid(given) ? given : await requireOwnIntentId(em, a.userId, intentId);
    const intent = await queryIntent(em, a.userId, id);
    if (!intent) throw intentNotFound();
    if (intent.archived_at) throw conflict('intent_inactive', { detail: 'The intent is archived' });
    if (intent.status === 'paused') throw conflict('intent_inactive', { detail: 'The intent is paused' });

    const networks = intent.network_ids;
    if (!networks.length) return [];

    const intentFacets = intent.facets?.v === FACETS_VERSION ? intent.facets : extractFacets(intent.payload);
    const queryText = input.query.trim();
    const sameText = !queryText || queryText === intent.payload.trim();
    const reading = sameText ? intentFacets.reading : combineReadings(readIntent(queryText, { defaultRole: 'seek' }), intentFacets.reading);
    const facets: Facets = { ...intentFacets, reading };

    const shortlist = await this.shortlist(intent.id, a.userId, networks, facets, sameText ? null : queryText, intent);
    if (!shortlist.length) return [];
    const shortIds = shortlist.map((s) => s.id);
    const known = this.readings.known(shortIds);
    const rows = await candidateRows(em, { networkIds: networks, since: input.since ?? null, intentIds: shortIds, userId: a.userId, knownHashes: [...known.keys()] });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const candidates = rows.map((r) => ({ id: r.id, reading: this.candidateReading(r, known) }));
    // Word rarity among the intents compared (the query and its visible shortlist).
    const idf = idfFrom([reading, ...candidates.map((c) => c.reading)]);
    const ranked = rankCandidates(reading, candidates, idf, DEFAULT_PARAMS, { limit: Math.max(input.limit, JUDGED), minScore: this.config.MATCH_MIN_SCORE });
    return (await this.judged(queryText || intent.payload, ranked, byId))
      .slice(0, input.limit)
      .map(({ id, score }) => ({ row: byId.get(id)!, score }))
      .map(({ row, score }) => ({
        intentId: row.id,
        userId: row.user_id,
        name: row.name,
        statement: row.summary.trim() || row.payload,
        networkId: row.network_id,
        score: Math.round(score * 10_000) / 10_000,
      }));
  }

  /**
   * A candidate's reading: the one kept for its text hash, else the stored one (kept from now
   * on), else, with no current stored facets, read from the text.
   */
  private candidateReading(row: CandidateRow, known: Map<string, IntentReading>): IntentReading {
    if (row.text_hash === null) return extractFacets(row.payload).reading;
    const kept = known.get(row.text_hash);
    if (kept) {
      this.readings.remember(row.id, row.text_hash);
      return kept;
    }
    if (row.facets_v !== FACETS_VERSION || !row.reading) return extractFacets(row.payload).reading;
    this.readings.remember(row.id, row.text_hash, row.reading);
    return row.reading;
  }

  /**
   * The local order, or, with a judge, the best JUDGED rescored by the model's pairwise judgement
   * (judgedScore) and everything sorted again; the rest keep their local scores. Any judge
   * failure keeps the local order.
   */
  private async judged<T extends { payload: string; summary: string }>(query: string, ranked: Array<{ id: string; score: number }>, byId: Map<string, T>) {
    if (!this.judge || !ranked.length) return ranked;
    const top = ranked.slice(0, JUDGED);
    let verdicts: Awaited<ReturnType<CandidateJudge['judge']>> = null;
    try {
      verdicts = await this.judge.judge(query, top.map((r) => ({ id: r.id, text: byId.get(r.id)!.payload })));
    } catch (err) {
      this.logger.warn({ err }, 'candidate judge failed; the local order stands');
    }
    if (!verdicts) return ranked;
    const byCandidate = new Map(verdicts.map((v) => [v.id, v]));
    const rescored = top.map((r) => ({ id: r.id, score: judgedScore(r.score, byCandidate.get(r.id)!) }));
    return [...rescored, ...ranked.slice(JUDGED)].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  /**
   * Candidates from the vector index. The query vector comes from the stored vector when the
   * query is the intent's own text (no provider call); otherwise the query is embedded, and if
   * the provider fails the intent's own vector stands in. With no index answer at all, the
   * newest intents of the networks are read from Postgres, so discover still serves.
   */
  private async shortlist(intentId: string, userId: string, networkIds: string[], facets: Facets, queryText: string | null, stored: Pick<QueryIntentRow, 'vector' | 'embedder'>) {
    const { embedder, index } = this.indexer;
    let vector: Float32Array | null = null;
    if (queryText) {
      try {
        vector = embedder.queryVector((await embedder.embed([{ text: queryText, facets }]))[0]);
      } catch (err) {
        this.logger.warn({ err }, 'query embedding failed; using the intent vector');
      }
    }
    if (!vector && stored.vector && stored.embedder === embedder.id) vector = embedder.queryVector(fromBuffer(stored.vector));
    if (!vector) {
      try {
        vector = embedder.queryVector((await embedder.embed([{ text: '', facets }]))[0]);
      } catch {
        vector = null;
      }
    }
    if (vector) {
      try {
        return await index.search({ vector, networkIds, excludeUserId: userId, limit: SHORTLIST });
      } catch (err) {
        this.logger.error({ err }, 'vector index search failed; reading candidates from Postgres');
      }
    }
    const ids = await newestInNetworks(this.em, networkIds, userId, intentId, SHORTLIST);
    return ids.map((id) => ({ id, score: 0 }));
  }
}
