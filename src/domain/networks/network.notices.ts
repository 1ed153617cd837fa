import type { DomainHooks } from '../shared/domain-hooks';

/**
 * After-commit notices to the other areas (matching re-indexes, opportunities expire). Sent
 * only once the change is committed, so listeners read the new truth from Postgres.
 */
export async function noticeNetworkDeleted(hooks: DomainHooks, networkId: string, unsharedIntentIds: string[]): Promise<void> {
  await hooks.emit('network.deleted', { networkId });
  if (unsharedIntentIds.length) await hooks.emit('intents.changed', { intentIds: unsharedIntentIds });
}

export async function noticeMembershipEnded(hooks: DomainHooks, networkId: string, userId: string, unsharedIntentIds: string[]): Promise<void> {
  await hooks.emit('membership.removed', { networkId, userId });
  if (unsharedIntentIds.length) await hooks.emit('intents.changed', { intentIds: unsharedIntentIds });
}
