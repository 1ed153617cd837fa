import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../entities/user.entity';
import { intentsByIds, networkIdsByIntent } from '../domain/intents/intents.repository';
import { usersByIds } from '../domain/accounts/users.repository';
import { walletChainsOf } from '../domain/legacy/wallet-users.repository';
import type { Network } from '../entities/network.entity';
import type { NetworkRole } from '../entities/network-member.entity';
import { memberCountsOf, networksByIds, ownerIdsOf, rolesOf } from '../domain/networks/networks.repository';
import type { Services } from '../services';
import type { LegacyIndex } from '../entities/legacy-index.entity';
import type { WebPage } from '../entities/web-page.entity';
import type { Intent } from '../entities/intent.entity';
import type { OpportunityView } from '../domain/opportunities/opportunity.views';
import type { NegotiationView } from '../domain/negotiations/negotiation.views';
import { participantsOf, unreadCountsOf, type ParticipantView } from '../domain/conversations/conversation.repository';
import { lastMessagesOf } from '../domain/conversations/message.repository';
import type { MessageView } from '../domain/conversations/message-view';

/**
 * Per-request batch loaders, so nested fields cost one query per level rather than one per row.
 * Add a getter per loader; each is created on first use.
 */
export class Loaders {
  private readonly cache = new Map<string, DataLoader<string, unknown>>();

  constructor(private readonly services: Services) {}

  private get em(): EntityManager {
    return this.services.orm.em as EntityManager;
  }

  /** Creates (once per request) a loader keyed by `name`. */
  protected loader<V>(name: string, batch: (keys: readonly string[]) => Promise<Array<V | null>>): DataLoader<string, V | null> {
    let l = this.cache.get(name) as DataLoader<string, V | null> | undefined;
    if (!l) {
      l = new DataLoader<string, V | null>(batch);
      this.cache.set(name, l as DataLoader<string, unknown>);
    }
    return l;
  }

  get users(): DataLoader<string, User | null> {
    return this.loader('users', async (ids) => {
      const rows = await usersByIds(this.em, [...ids]);
      const byId = new Map(rows.map((u) => [u.id, u]));
      return ids.map((id) => byId.get(id) ?? null);
    });
  }

  /** Chain id of a wallet user's first SIWE sign-in, by user id. */
  get walletChains(): DataLoader<string, number | null> {
    return this.loader('walletChains', async (userIds) => {
      const byUser = await walletChainsOf(this.em, userIds);
      return userIds.map((id) => byUser.get(id) ?? null);
    });
  }

  /** intent id → the ids of the networks it is shared into. */
  get intentNetworkIds(): DataLoader<string, string[] | null> {
    return this.loader('intentNetworkIds', async (ids) => {
      const byIntent = await networkIdsByIntent(this.em, ids);
      return ids.map((id) => byIntent.get(id) ?? []);
    });
  }

  get networks(): DataLoader<string, Network | null> {
    return this.loader('networks', async (ids) => {
      const rows = await networksByIds(this.em, [...ids]);
      const byId = new Map(rows.map((n) => [n.id, n]));
      return ids.map((id) => byId.get(id) ?? null);
    });
  }

  get networkMemberCounts(): DataLoader<string, number | null> {
    return this.loader('networkMemberCounts', (ids) => memberCountsOf(this.em, ids));
  }

  get networkOwnerIds(): DataLoader<string, string | null> {
    return this.loader('networkOwnerIds', (ids) => ownerIdsOf(this.em, ids));
  }

  /** Opportunities by id as `userId` reads them (their seat's card). */
  opportunitiesFor(userId: string): DataLoader<string, OpportunityView | null> {
    return this.loader(`opportunities:${userId}`, (ids) => this.services.opportunities.viewsOrNull(userId, ids));
  }

  /** The negotiation of each opportunity id, as `userId` reads it (turns and protocol included). */
  negotiationsFor(userId: string): DataLoader<string, NegotiationView | null> {
    return this.loader(`negotiations:${userId}`, (ids) => this.services.negotiations.readManyAs(userId, ids));
  }

  /** The given user's role in each network (null: not a member). */
  networkRolesOf(userId: string): DataLoader<string, NetworkRole | null> {
    return this.loader(`networkRoles:${userId}`, (ids) => rolesOf(this.em, userId, ids));
  }

  /** Indexes of the earlier route group, by id. */
  get legacyIndexes(): DataLoader<string, LegacyIndex | null> {
    return this.loader('legacyIndexes', (ids) => this.services.legacy.indexes.findMany(ids));
  }

  get webPages(): DataLoader<string, WebPage | null> {
    return this.loader('webPages', (ids) => this.services.web.pages.findMany(ids));
  }

  /** Intents by id with no owner check: for nodes of indexes, which their owners put there. */
  get intentNodes(): DataLoader<string, Intent | null> {
    return this.loader('intentNodes', async (ids) => {
      const rows = await intentsByIds(this.em, ids);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    });
  }

  get conversationParticipants(): DataLoader<string, ParticipantView[] | null> {
    return this.loader('conversationParticipants', (ids) => participantsOf(this.em, ids));
  }

  get conversationLastMessages(): DataLoader<string, MessageView | null> {
    return this.loader('conversationLastMessages', (ids) => lastMessagesOf(this.em, ids));
  }

  /** Unread messages per conversation for the given user. */
  unreadCountsOf(userId: string): DataLoader<string, number | null> {
    return this.loader(`unreadCounts:${userId}`, (ids) => unreadCountsOf(this.em, userId, ids));
  }
}
