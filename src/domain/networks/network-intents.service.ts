import type { Actor } from '../auth/actor';
import type { IntentStatus } from '../../entities/intent.entity';
import { DomainService } from '../shared/domain-service';
import { findNetwork, visibleIntentsPage } from './networks.repository';
import { PAGES, pageOf, pageWindow, type Page, type PageArgs } from './paging.rules';
import { requireAccess } from '../access/require-access';

/**
 * An intent as a network's members see it: the Intent resource of core-api.md without the
 * owner's private source fields, plus when it was shared here.
 */
export interface NetworkIntentView {
  id: string;
  userId: string;
  payload: string;
  summary: string;
  status: IntentStatus;
  createdAt: Date;
  updatedAt: Date;
  sharedAt: Date;
}

export class NetworkIntentsService extends DomainService {
  /** Members only; most recently shared first. */
  async list(actor: Actor, networkId: string, args: PageArgs): Promise<Page<NetworkIntentView>> {
    const userId = actor.userId;
    const w = pageWindow(args, PAGES.intents);
    const network = await findNetwork(this.em, networkId);
    await requireAccess(this.em, { userId }, 'network.member', [network.id]);
    const { rows, total } = await visibleIntentsPage(this.em, network.id, w);
    return pageOf(
      rows.map((r) => ({
        id: r.id,
        userId: r.user_id,
        payload: r.payload,
        summary: r.summary,
        status: r.status,
        createdAt: new Date(r.created_at),
        updatedAt: new Date(r.updated_at),
        sharedAt: new Date(r.shared_at),
      })),
      w,
      total,
    );
  }
}
