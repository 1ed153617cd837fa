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
import type { IndexHit } from '../../vector/vector-index';
import type { ReadingsByHash } from './readings-by-hash';

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

/** Whether the best `need` visible candidates are known: none ranked above them is unread. */
function settled(ranked: Array<{ id: string }>, rows: Map<string, CandidateRow>, need: number): boolean {
  let visible = 0;
  for (const r of ranked) {
    const row = rows.get(r.id);
    if (!row) return false;
    if (row.visible && ++visible >= need) return true;
  }
  return true;
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

  /** Candidates' readings kept in this instance (the indexer fills them as it indexes). */
  private get readings(): ReadingsByHash {
    return this.indexer.readings;
  }

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
    const need = Math.max(input.limit, JUDGED);
    const scope = { networkIds: networks, since: input.since ?? null, userId: a.userId };
    const shown = await this.rankVisible(reading, shortlist, need, scope);
    const byId = new Map(shown.map((s) => [s.row.id, s.row]));
    return (await this.judged(queryText || intent.payload, shown, byId))
      .slice(0, input.limit)
      .map(({ id, score }) => ({ row: byId.get(id)!, score }))
      .map(({ row, score }) => ({
        intentId: row.id,
        userId: row.user_id,
        name: row.name,
        statement: row.summary.trim() || row.payload,
        networkId: row.network_id!,
        score: Math.round(score * 10_000) / 10_000,
      }));
  }

  /**
   * The best `need` visible candidates of the shortlist, best first (ADR 0118). Every candidate
   * is ranked by its reading, with word rarity counted over the query and the whole shortlist;
   * only the best-ranked are then checked for visibility, in rank order. When the instance keeps
   * the reading of every shortlisted text (by the hash the index hands back), ranking needs no
   * statement and the check reads twice `need` rows; otherwise one statement reads every
   * candidate's row with its reading and whether it is visible.
   */
  private async rankVisible(
    reading: IntentReading,
    shortlist: IndexHit[],
    need: number,
    scope: { networkIds: string[]; since: string | null; userId: string },
  ): Promise<Array<{ id: string; score: number; row: CandidateRow }>> {
    const em = this.em;
    const minScore = this.config.MATCH_MIN_SCORE;
    const hashes = new Map<string, string>();
    const kept = new Map<string, IntentReading>();
    for (const hit of shortlist) {
      const hash = hit.textHash ?? this.readings.hashOf(hit.id);
      const r = hash === undefined ? undefined : this.readings.byHash(hash);
      if (hash === undefined || !r) continue;
      hashes.set(hit.id, hash);
      kept.set(hit.id, r);
    }
    const rows = new Map<string, CandidateRow>();
    const readings = new Map(kept);
    /** Reads these candidates' rows; true when the ranking must be made again (a kept reading was of a text changed since, or an intent is gone). */
    const read = async (ids: string[]): Promise<boolean> => {
      const known = [...new Set(ids.map((id) => hashes.get(id)).filter((h): h is string => h !== undefined))];
      let changed = false;
      for (const row of await candidateRows(em, { ...scope, intentIds: ids, knownHashes: known })) {
        rows.set(row.id, row);
        if (readings.has(row.id) && row.text_hash === hashes.get(row.id)) continue;
        // A text changed since the index was told carries its new reading: it is ranked by that.
        changed ||= readings.has(row.id);
        readings.set(row.id, this.candidateReading(row));
      }
      for (const id of ids) {
        if (rows.has(id) || !readings.has(id)) continue;
        // Deleted since the index was told.
        readings.delete(id);
        changed = true;
      }
      return changed;
    };
    if (kept.size < shortlist.length) await read(shortlist.map((h) => h.id));
    const rank = () => {
      const idf = idfFrom([reading, ...readings.values()]);
      return rankCandidates(reading, [...readings].map(([id, r]) => ({ id, reading: r })), idf, DEFAULT_PARAMS, { limit: Infinity, minScore, explain: false });
    };
    let ranked = rank();
    // Rows are read in rank order until the best `need` visible ones are known: twice `need`
    // first, then (rarely: many not visible, `since`, a changed text) everything left.
    for (let batch = need * 2; !settled(ranked, rows, need); batch = ranked.length) {
      if (await read(ranked.filter((r) => !rows.has(r.id)).slice(0, batch).map((r) => r.id))) ranked = rank();
    }
    return this.visibleOf(ranked, rows).slice(0, need);
  }

  private visibleOf(ranked: Array<{ id: string; score: number }>, rows: Map<string, CandidateRow>) {
    const out: Array<{ id: string; score: number; row: CandidateRow }> = [];
    for (const r of ranked) {
      const row = rows.get(r.id);
      if (row?.visible) out.push({ id: r.id, score: r.score, row });
    }
    return out;
  }

  /**
   * A candidate's reading: the one kept for its text hash (named as known, so the row carries
   * none), else the stored one (kept from now on), else, with no current stored facets, read
   * from the text.
   */
  private candidateReading(row: CandidateRow): IntentReading {
    if (row.text_hash === null) return extractFacets(row.payload).reading;
    if (!row.reading) {
      const held = this.readings.byHash(row.text_hash);
      if (held) {
        this.readings.remember(row.id, row.text_hash);
        return held;
      }
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
