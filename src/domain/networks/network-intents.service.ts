import type { Actor } from '../auth/actor';
import type { IntentStatus } from '../../entities/intent.entity';
import { DomainService } from '../shared/domain-service';
import { findNetwork } from './network.records';
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

interface Row {
  id: string;
  user_id: string;
  payload: string;
  summary: string;
  status: IntentStatus;
  created_at: Date;
  updated_at: Date;
  shared_at: Date;
}

/**
 * Visible: active, unarchived intents shared here whose owners are still members. The member
 * join is the rule itself, not only the unsharing done when someone leaves.
 */
const VISIBLE = `
  from intent_networks s
  join intents i on i.id = s.intent_id
  join network_members m on m.network_id = s.network_id and m.user_id = i.user_id
  where s.network_id = ? and i.archived_at is null and i.status = 'active'`;

export class NetworkIntentsService extends DomainService {
  /** Members only; most recently shared first. */
  async list(actor: Actor, networkId: string, args: PageArgs): Promise<Page<NetworkIntentView>> {
    const userId = actor.userId;
    const w = pageWindow(args, PAGES.intents);
    const network = await findNetwork(this.em, networkId);
    await requireAccess(this.em, { userId }, 'network.member', [network.id]);
    const rows = await this.em.execute<Row[]>(
      `select i.id, i.user_id, i.payload, i.summary, i.status, i.created_at, i.updated_at, s.shared_at ${VISIBLE}
       order by s.shared_at desc, i.id desc limit ? offset ?`,
      [network.id, w.limit, w.offset],
    );
    const [{ n }] = await this.em.execute<Array<{ n: string }>>(`select count(*) as n ${VISIBLE}`, [network.id]);
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
      Number(n),
    );
  }
}
