import type { Config } from './config';
import type { Orm } from './db/orm';
import type { Logger } from './logger';
import { ApiKeyService } from './auth/api-key.service';
import { Authenticator } from './auth/authenticate';
import { SessionService } from './auth/session.service';
import { AccountService } from './domain/accounts/account.service';
import { DocsTopicsService } from './domain/accounts/docs-topics.service';
import { OnboardingService } from './domain/accounts/onboarding.service';
import { SubscriptionService } from './domain/accounts/subscription.service';
import { AgentService } from './domain/agents/agent.service';
import { ImageStorageService } from './domain/storage/image-storage.service';
import type { CoreDeps } from './domain/shared/domain-service';
import { DomainHooks } from './domain/shared/domain-hooks';
import type { EventNotifier } from './events/notifier';
import type { JobQueue } from './jobs/job-queue';
import { Mailer } from './mail/mailer';
import type { OpenAIClient } from './ai/openai-client';
import { providerFromConfig } from './ai/provider';

/**
 * The process-wide object graph: one instance of each service, built once at start-up.
 * Areas add their services here (one field and one line in createServices).
 */
export interface Services extends CoreDeps {
  notifier: EventNotifier;
  jobs: JobQueue;
  mailer: Mailer;
  /** The OpenAI-compatible provider when OPENAI_BASE_URL is set; null means the local implementations serve. */
  provider: OpenAIClient | null;
  /** After-commit notices between areas (src/domain/shared/domain-hooks.ts). */
  hooks: DomainHooks;
  sessions: SessionService;
  apiKeys: ApiKeyService;
  authenticator: Authenticator;
  accounts: AccountService;
  onboarding: OnboardingService;
  subscriptions: SubscriptionService;
  docs: DocsTopicsService;
  agents: AgentService;
  storage: ImageStorageService;
  /** Checks behind GET /readyz (database, vector index, ...). */
  readiness: Array<{ name: string; check: () => Promise<unknown> }>;
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
  const sessions = new SessionService(config.SESSION_SECRET);
  const apiKeys = new ApiKeyService();
  const authenticator = new Authenticator(sessions, apiKeys);
  const mailer = new Mailer(config.SMTP_URL, config.MAIL_FROM, logger);
  const hooks = new DomainHooks(logger);
  return {
    ...core,
    notifier,
    jobs,
    mailer,
    provider: providerFromConfig(config),
    hooks,
    sessions,
    apiKeys,
    authenticator,
    accounts: new AccountService(core),
    onboarding: new OnboardingService(core),
    subscriptions: new SubscriptionService(core),
    docs: new DocsTopicsService(),
    agents: new AgentService(core, hooks),
    storage: new ImageStorageService(core),
    readiness: [{ name: 'database', check: () => orm.em.getConnection().execute('select 1') }],
    streamClosers: new Set(),
    closers: [() => mailer.close()],
    async start() {
      // Areas add their start-up steps here.
    },
  };
}
