import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import type { Orm } from '../../db/orm';
import { currentLogger, type Logger } from '../../logger';

/** What every domain service may use. Areas add their own collaborators through constructors. */
export interface CoreDeps {
  config: Config;
  logger: Logger;
  orm: Orm;
}

export abstract class DomainService {
  constructor(protected readonly core: CoreDeps) {}

  /**
   * The request's EntityManager: `orm.em` resolves to the fork bound by RequestContext for the
   * HTTP request, WebSocket operation or job being handled (the global one is disabled).
   */
  protected get em(): EntityManager {
    return this.core.orm.em as EntityManager;
  }

  protected get config(): Config {
    return this.core.config;
  }

  /** The current request's logger (lines carry its request id); the root logger elsewhere. */
  protected get logger(): Logger {
    return currentLogger(this.core.logger);
  }
}
