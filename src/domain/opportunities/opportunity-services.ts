import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../jobs/job-queue';
import { HostedNegotiator } from '../negotiations/hosted-negotiator.service';
import { noteIntentChanges } from '../negotiations/intent-changes';
import { NegotiationService } from '../negotiations/negotiation.service';
import type { NegotiatorPolicy } from '../negotiations/ports';
import type { CoreDeps } from '../shared/domain-service';
import type { DomainHooks } from '../shared/domain-hooks';
import { reconcileEndings } from './opportunity-endings';
import { OpportunityService } from './opportunity.service';
import type { CardWriter } from './ports';

export interface OpportunityServices {
  opportunities: OpportunityService;
  negotiations: NegotiationService;
  /** The hosted negotiator (its jobs, its sweep, and the owner's answers). */
  negotiator: HostedNegotiator;
}

export function createOpportunityServices(core: CoreDeps, deps: { jobs: JobQueue; policy: NegotiatorPolicy; cardWriter: CardWriter }): OpportunityServices {
  const negotiator = new HostedNegotiator(core, deps.jobs, deps.policy);
  return {
    negotiator,
    opportunities: new OpportunityService(core, deps.cardWriter, negotiator),
    negotiations: new NegotiationService(core, negotiator),
  };
}

/**
 * Jobs and the other areas' notices. Each notice only speeds up what the minute sweep and the
 * reads would do anyway (docs/negotiation.md, "Endings"), so a notice lost in a crash is harmless.
 */
export function startOpportunityServices(s: OpportunityServices, hooks: DomainHooks, core: CoreDeps): void {
  const withEm = <T>(fn: (em: EntityManager) => Promise<T>): Promise<T> =>
    RequestContext.getEntityManager() ? fn(core.orm.em as EntityManager) : RequestContext.create(core.orm.em, () => fn(core.orm.em as EntityManager));
  s.negotiator.registerJobs();
  hooks.on('intents.changed', ({ intentIds }) =>
    withEm(async (em) => {
      await reconcileEndings(em, { kind: 'intents', intentIds });
      await s.negotiator.wake(await noteIntentChanges(em, intentIds));
    }),
  );
  hooks.on('membership.removed', ({ networkId }) => withEm((em) => reconcileEndings(em, { kind: 'network', networkId }).then(() => undefined)));
  hooks.on('network.deleted', () => withEm((em) => reconcileEndings(em, { kind: 'network', networkId: null }).then(() => undefined)));
  hooks.on('negotiator.changed', ({ userId, type }) => (type === 'system' ? withEm(() => s.negotiator.wakeAwaiting(userId)) : undefined));
  hooks.on('agent.answered', ({ userId, questionId, text }) => withEm(() => s.negotiator.onAnswered({ userId, questionId, text }).then(() => undefined)));
}
