import type { Actor } from '../auth/actor';
import type { Network } from '../../entities/network.entity';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import type { DomainHooks } from '../shared/domain-hooks';
import { forbidden, notFound, unauthenticated } from '../shared/errors';
import { isUuid, parseInput } from '../shared/validation';
import { hasEarlyAccess } from '../access/early-access.policy';
import { noticeNetworkDeleted } from './network.notices';
import {
  createNetworkWithOwner,
  deleteNetwork,
  findNetwork,
  lockNetwork,
  membershipsPage,
  networkByShareCode,
  networksByIds,
  publicNetworkById,
  publicNetworksPage,
  saveNetworkChanges,
} from './networks.repository';
import { userById } from '../accounts/users.repository';
import { createNetworkSchema, updateNetworkSchema } from './network.schemas';
import { PAGES, pageOf, pageWindow, type Page, type PageArgs } from './paging.rules';
import { requireAccess } from '../access/require-access';

/**
 * Networks themselves: creation (early access), reads (members, public views, share links),
 * owner edits and deletion. Membership changes live in MembershipService.
 */
export class NetworkService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly hooks: DomainHooks,
  ) {
    super(core);
  }

  async create(actor: Actor, input: unknown): Promise<Network> {
    const userId = actor.userId;
    const fields = parseInput(createNetworkSchema, input);
    const user = await userById(this.em, userId);
    if (!user) throw unauthenticated('This account no longer exists');
    if (!hasEarlyAccess(this.config, user)) {
      throw forbidden('Creating a network needs early access; send a network request instead');
    }
    return this.em.transactional((tx) => createNetworkWithOwner(tx, fields, userId));
  }

  /**
   * Members read any network they are in; anyone signed in reads a public (`anyone`) network;
   * an invite_only network the caller is not in answers 403 (docs/adr/0002).
   */
  async get(actor: Actor, networkId: string): Promise<Network> {
    const userId = actor.userId;
    const network = await findNetwork(this.em, networkId);
    if (network.joinPolicy !== 'anyone') await requireAccess(this.em, { userId }, 'network.member', [network.id]);
    return network;
  }

  /** No credential: only public (`anyone`) networks are readable by id. */
  async getPublic(networkId: string): Promise<Network> {
    const network = isUuid(networkId) ? await publicNetworkById(this.em, networkId) : null;
    if (!network) throw notFound('Network');
    return network;
  }

  /** No credential: the share code is the capability, whatever the join policy. */
  async getByShareCode(code: string): Promise<Network> {
    const network = code ? await networkByShareCode(this.em, code) : null;
    if (!network) throw notFound('Network');
    return network;
  }

  async update(actor: Actor, networkId: string, input: unknown): Promise<Network> {
    const userId = actor.userId;
    const changes = parseInput(updateNetworkSchema, input);
    return this.em.transactional(async (tx) => {
      const network = await lockNetwork(tx, networkId);
      await requireAccess(tx, { userId }, 'network.owner', [network.id]);
      for (const [k, v] of Object.entries(changes)) if (v !== undefined) Object.assign(network, { [k]: v });
      await saveNetworkChanges(tx, network);
      return network;
    });
  }

  async delete(actor: Actor, networkId: string): Promise<void> {
    const userId = actor.userId;
    const { id, intentIds } = await this.em.transactional(async (tx) => {
      const network = await lockNetwork(tx, networkId);
      await requireAccess(tx, { userId }, 'network.owner', [network.id]);
      return { id: network.id, intentIds: await deleteNetwork(tx, network.id) };
    });
    await noticeNetworkDeleted(this.hooks, id, intentIds);
  }

  /** The caller's memberships, most recently joined first. */
  async mine(actor: Actor, args: PageArgs): Promise<Page<Network>> {
    const userId = actor.userId;
    const w = pageWindow(args, PAGES.networks);
    const [rows, total] = await membershipsPage(this.em, userId, w);
    const networks = await networksByIds(this.em, rows.map((r) => r.networkId));
    const byId = new Map(networks.map((n) => [n.id, n]));
    return pageOf(rows.map((r) => byId.get(r.networkId)).filter((n): n is Network => !!n), w, total);
  }

  /** Public discovery: `anyone` networks, newest first. */
  async discover(actor: Actor, args: PageArgs): Promise<Page<Network>> {
    const w = pageWindow(args, PAGES.discovery);
    const [items, total] = await publicNetworksPage(this.em, w);
    return pageOf(items, w, total);
  }
}
