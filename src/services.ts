import type { Config } from './config';
import type { Orm } from './db/orm';
import type { Logger } from './logger';
import { ApiKeyService } from './domain/auth/api-key.service';
import { Authenticator } from './domain/auth/authenticate';
import { SessionService } from './domain/auth/session.service';
import { CredentialCache } from './domain/auth/credential-cache';
import { LastUses } from './domain/auth/last-uses';
import { publishTopic } from './domain/events/topics';
import { listeningInstances } from './domain/events/listening-instances';
import { AccountService } from './domain/accounts/account.service';
import { createAuthServices, type AuthServices } from './domain/auth/auth-services';
import { createNetworkServices, type NetworkServices } from './domain/networks/network-services';
import { DocsTopicsService } from './domain/accounts/docs-topics.service';
import { OnboardingService } from './domain/accounts/onboarding.service';
import { SubscriptionService } from './domain/accounts/subscription.service';
import { AgentService } from './domain/agents/agent.service';
import { ImageStorageService } from './domain/storage/image-storage.service';
import type { CoreDeps } from './domain/shared/domain-service';
import { DomainHooks } from './domain/shared/domain-hooks';
import { pingDatabase } from './domain/shared/shared.repository';
import type { EventNotifier } from './domain/events/notifier';
import type { JobQueue } from './jobs/job-queue';
import { Mailer } from './mail/mailer';
import type { RateBudgets } from './rest/rate-budgets';
import { createRateBudgets, pruneRateLimits, RATE_LIMIT_PRUNE_JOB } from './rest/rate-limit';
import { adaptersFromConfig } from './adapters';
import { createWebServices, type WebServices } from './domain/web/web-services';
import { IntentService } from './domain/intents/intent.service';
import { PreparationReceipts } from './domain/intents/preparation-receipt';
import { IntentIndexer } from './domain/matching/intent-indexer.service';
import { MatchingService } from './domain/matching/matching.service';
import { itemVectorIndexFromConfig, vectorIndexFromConfig } from './vector/index-factory';
import { DidSessionVerifier } from './domain/auth/did-session.verifier';
import { createLegacyServices, type LegacyServices } from './domain/legacy/legacy-services';
import { createOpportunityServices, startOpportunityServices, type OpportunityServices } from './domain/opportunities/opportunity-services';
import type { VectorIndex } from './vector/vector-index';
import { AgentThreadService } from './domain/conversations/agent-thread.service';
import { ConversationService } from './domain/conversations/conversation.service';
import { EventStreamService } from './domain/events/event-stream.service';
import { FrameHub } from './domain/events/frame-hub';
import { EVENTS_PRUNE_JOB, pruneEvents } from './domain/events/retention';

/**
 * The process-wide object graph: one instance of each service, built once at start-up.
 * Areas add their services here (one field and one line in createServices).
 */
export interface Services extends CoreDeps {
  notifier: EventNotifier;
  jobs: JobQueue;
  mailer: Mailer;
  /** After-commit notices between areas (src/domain/shared/domain-hooks.ts). */
  hooks: DomainHooks;
  sessions: SessionService;
  apiKeys: ApiKeyService;
  /** Verified sessions and API keys, believed for AUTH_CACHE_TTL_MS, emptied on revocation everywhere. */
  credentials: CredentialCache;
  authenticator: Authenticator;
  accounts: AccountService;
  /** Sign-in methods, API keys, devices, account deletion (src/domain/auth). */
  auth: AuthServices;
  /** Reading the web safely: fetcher, scrape, enrichment, web pages. */
  web: WebServices;
  intents: IntentService;
  networks: NetworkServices;
  /** Discover, and indexIntents(ids) for the intents area. */
  matching: MatchingService;
  vectorIndex: VectorIndex;
  onboarding: OnboardingService;
  subscriptions: SubscriptionService;
  docs: DocsTopicsService;
  agents: AgentService;
  storage: ImageStorageService;
  /** The earlier route group (legacy-api.md). */
  legacy: LegacyServices;
  /** The personal-agent thread: reads, h2a entries, answers (src/domain/conversations). */
  agentThread: AgentThreadService;
  /** Direct conversations: list, open, messages, read marks, hiding. */
  conversations: ConversationService;
  /** The event log and streams (SSE and GraphQL subscriptions). */
  eventStream: EventStreamService;
  /** Opportunities, negotiations and the hosted negotiator (src/domain/opportunities, src/domain/negotiations). */
  opportunities: OpportunityServices['opportunities'];
  negotiations: OpportunityServices['negotiations'];
  negotiator: OpportunityServices['negotiator'];
  /** Checks behind GET /readyz (database, vector index, ...). */
  readiness: Array<{ name: string; check: () => Promise<unknown> }>;
  /** Request budgets (src/rest/rate-limit.ts): counted per instance or shared through the database. */
  rateBudgets: RateBudgets;
  /** Last uses of sessions and API keys, written after the requests (src/domain/auth/last-uses.ts). */
  lastUses: LastUses;
  /** Open streams (SSE) to end first on shutdown, so draining HTTP does not wait on them. */
  streamClosers: Set<() => Promise<void> | void>;
  /** Background parts to stop on shutdown (workers, queues), run in reverse order. */
  closers: Array<() => Promise<void> | void>;
  /** Runs once before HTTP opens: areas load indexes, register jobs, and so on. */
  start(): Promise<void>;
}

export interface ServiceInputs {
  config: Config;
  logger: Logger;
  orm: Orm;
  notifier: EventNotifier;
  jobs: JobQueue;
}

export function createServices({ config, logger, orm, notifier, jobs }: ServiceInputs): Services {
  const core: CoreDeps = { config, logger, orm };
  const credentials = new CredentialCache({
    ttlMs: config.AUTH_CACHE_TTL_MS,
    maxEntries: config.AUTH_CACHE_MAX_ENTRIES,
    feed: notifier,
    instanceId: notifier.instanceId,
    listeners: () => listeningInstances(orm),
    // On a connection of its own, outside any request's transaction: the change has committed.
    publish: (topic, data) => publishTopic(orm.em.getConnection(), topic, data),
    logger,
  });
  const lastUses = new LastUses(() => orm.em, logger);
  const sessions = new SessionService(config.SESSION_SECRET, credentials, lastUses);
  const apiKeys = new ApiKeyService(credentials, lastUses);
  const authenticator = new Authenticator(sessions, apiKeys);
  const mailer = new Mailer(config.SMTP_URL, config.MAIL_FROM, logger, { printNotices: config.LOG_LEVEL !== 'silent' });
  const adapters = adaptersFromConfig(config);
  const hooks = new DomainHooks(logger);
  const accounts = new AccountService(core);
  const vectorIndex = vectorIndexFromConfig(config);
  const agentThread = new AgentThreadService(core, hooks);
  const streamClosers = new Set<() => Promise<void> | void>();
  const agents = new AgentService(core, hooks);
  const eventStream = new EventStreamService(core, { notifier, hub: new FrameHub(orm, notifier, logger), agents, closers: streamClosers });
  const matching = new MatchingService(core, new IntentIndexer(core, adapters.embedder, vectorIndex, jobs), jobs, adapters.candidateJudge);
  const storage = new ImageStorageService(core);
  const legacy = createLegacyServices(core, { textEmbedder: adapters.textEmbedder, answerModel: adapters.answerModel, notifier, jobs, hooks, storage, itemIndex: itemVectorIndexFromConfig(config) });
  const opportunityServices = createOpportunityServices(core, { jobs, policy: adapters.negotiatorPolicy, cardWriter: adapters.cardWriter });
  const rateBudgets = createRateBudgets(config, orm, logger);
  const services: Services = {
    ...core,
    ...opportunityServices,
    notifier,
    jobs,
    mailer,
    hooks,
    sessions,
    apiKeys,
    credentials,
    authenticator,
    accounts,
    auth: createAuthServices(core, () => services),
    web: createWebServices(core, { suggestion: adapters.suggestionModel, extractor: adapters.pageExtractor }),
    intents: new IntentService(core, hooks, adapters.intentPreparer, new PreparationReceipts(config.SESSION_SECRET), matching.indexer),
    networks: createNetworkServices(core, { hooks, mailer, accounts }),
    matching,
    vectorIndex,
    onboarding: new OnboardingService(core),
    subscriptions: new SubscriptionService(core),
    docs: new DocsTopicsService(),
    agents,
    storage,
    legacy,
    agentThread,
    conversations: new ConversationService(core, agentThread),
    eventStream,
    readiness: [
      { name: 'database', check: () => pingDatabase(orm.em) },
      { name: 'vector_index', check: () => vectorIndex.ping() },
    ],
    rateBudgets,
    lastUses,
    streamClosers,
    closers: [() => rateBudgets.stop(), () => lastUses.stop(), () => credentials.stop(), () => mailer.close(), () => eventStream.stop(), async () => { await matching.indexer.stop(); await vectorIndex.close(); }, () => legacy.stop()],
    async start() {
      // Areas add their start-up steps here.
      jobs.register({ name: RATE_LIMIT_PRUNE_JOB, cron: '17 * * * *', handler: async () => void (await pruneRateLimits(orm)) });
      matching.registerJobs();
      startOpportunityServices(opportunityServices, hooks, core);
      jobs.register({ name: EVENTS_PRUNE_JOB, cron: '23 * * * *', handler: async () => void (await pruneEvents(orm)) });
      eventStream.start();
      hooks.on('negotiator.changed', ({ userId, agentId }) => eventStream.seatChanged(userId, agentId));
      hooks.on('intents.changed', async ({ intentIds }) => {
        await matching.indexIntents(intentIds);
      });
      hooks.on('membership.removed', ({ userId }) => matching.indexer.refreshUser(userId));
      hooks.on('credentials.revoked', (scope) => credentials.revoked(scope));
      hooks.on('network.deleted', ({ networkId }) => matching.indexer.refreshNetwork(networkId));
      await matching.indexer.load({ fromStore: vectorIndex.name === 'local' });
      if (vectorIndex.name === 'local') matching.indexer.startSync(config.MATCH_SYNC_MS);
      await legacy.start();
    },
  };
  // DID sessions (the earlier route group) become the same Actor; their wallet is the account.
  authenticator.addBearerVerifier(
    new DidSessionVerifier((_em, address, chainId) => services.auth.signIns.walletAccount(address, chainId), { domains: config.DID_SESSION_DOMAINS }),
  );
  return services;
}
