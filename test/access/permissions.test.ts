import { accessibleIds, hasAccess, requireAccess, resolveAccessible } from '../../src/domain/access/require-access';
import { requireSeatHolder } from '../../src/domain/access/negotiator-seat.policy';
import { PERMISSIONS } from '../../src/domain/access/permissions';
import { conflict, forbidden } from '../../src/domain/shared/errors';
import { openWorld, refusal, UNKNOWN, type World } from './world';

let w: World;
beforeAll(async () => {
  w = await openWorld();
});
afterAll(async () => {
  await w?.close();
});

const as = (userId: string) => ({ userId });
const NOT_FOUND = (what: string) => ({ code: 'NOT_FOUND', error: 'not_found', detail: `${what} not found` });

describe('intent.own', () => {
  it('allows the owner, by full id in any case and by short id', async () => {
    await expect(requireAccess(w.em, as(w.users.ada), 'intent.own', [w.intents.ada.toUpperCase()])).resolves.toEqual([w.intents.ada]);
    await expect(resolveAccessible(w.em, as(w.users.ada), 'intent.own', ` ${w.intents.ada.slice(0, 8)} `)).resolves.toBe(w.intents.ada);
  });

  it("answers anyone else's intent, an unknown id and a malformed one 404 Intent", async () => {
    expect(await refusal(requireAccess(w.em, as(w.users.ada), 'intent.own', [w.intents.ben]))).toEqual(NOT_FOUND('Intent'));
    expect(await refusal(requireAccess(w.em, as(w.users.ada), 'intent.own', [UNKNOWN]))).toEqual(NOT_FOUND('Intent'));
    expect(await refusal(resolveAccessible(w.em, as(w.users.ada), 'intent.own', 'not-an-id'))).toEqual(NOT_FOUND('Intent'));
    expect(await refusal(resolveAccessible(w.em, as(w.users.ada), 'intent.own', w.intents.ben.slice(0, 8)))).toEqual(NOT_FOUND('Intent'));
  });

  it('checks a mix of ids at once and keeps the allowed ones', async () => {
    const ids = [w.intents.ben, w.intents.benUnshared, w.intents.ada, UNKNOWN];
    expect(await accessibleIds(w.em, as(w.users.ben), 'intent.own', ids)).toEqual(new Set([w.intents.ben, w.intents.benUnshared]));
    expect(await refusal(requireAccess(w.em, as(w.users.ben), 'intent.own', ids))).toEqual(NOT_FOUND('Intent'));
  });
});

describe('intent.own.live', () => {
  it("allows the owner's intents that are not archived", async () => {
    const archived = '22222222-2222-4222-8222-222222222222';
    await w.em.execute(`insert into intents (id, user_id, payload, archived_at, created_at, updated_at) values (?, ?, 'x', now(), now(), now())`, [
      archived,
      w.users.cy,
    ]);
    expect(await accessibleIds(w.em, as(w.users.cy), 'intent.own.live', [w.intents.cy, archived, w.intents.ada])).toEqual(new Set([w.intents.cy]));
    expect(await accessibleIds(w.em, as(w.users.cy), 'intent.own', [w.intents.cy, archived])).toEqual(new Set([w.intents.cy, archived]));
    expect(await refusal(resolveAccessible(w.em, as(w.users.cy), 'intent.own.live', archived))).toEqual(NOT_FOUND('Intent'));
  });
});

describe('intent.visible', () => {
  it('shows an intent shared by a member in a network the user is in, and no other', async () => {
    const ids = [w.intents.ben, w.intents.benUnshared, w.intents.cy, UNKNOWN];
    expect(await accessibleIds(w.em, as(w.users.ada), 'intent.visible', ids)).toEqual(new Set([w.intents.ben]));
    expect(await accessibleIds(w.em, as(w.users.cy), 'intent.visible', ids)).toEqual(new Set([w.intents.cy]));
    expect(await accessibleIds(w.em, as(w.users.dee), 'intent.visible', ids)).toEqual(new Set());
  });

  it("hides an intent once its owner has left the network it was shared in", async () => {
    const intentId = '11111111-1111-4111-8111-111111111111';
    const userId = w.users.dee;
    await w.em.execute(`insert into network_members (network_id, user_id, role, joined_at) values (?, ?, 'member', now())`, [w.networks.n, userId]);
    await w.em.execute(`insert into intents (id, user_id, payload, created_at, updated_at) values (?, ?, 'x', now(), now())`, [intentId, userId]);
    await w.em.execute(`insert into intent_networks (intent_id, network_id, shared_at) values (?, ?, now())`, [intentId, w.networks.n]);
    expect(await hasAccess(w.em, as(w.users.ada), 'intent.visible', intentId)).toBe(true);
    await w.em.execute(`delete from network_members where network_id = ? and user_id = ?`, [w.networks.n, userId]);
    expect(await hasAccess(w.em, as(w.users.ada), 'intent.visible', intentId)).toBe(false);
  });
});

describe('network.member', () => {
  it('allows members of every kind', async () => {
    await expect(requireAccess(w.em, as(w.users.ada), 'network.member', [w.networks.n])).resolves.toEqual([w.networks.n]);
    await expect(requireAccess(w.em, as(w.users.ben), 'network.member', [w.networks.n])).resolves.toEqual([w.networks.n]);
  });

  it('answers a network the user is not in 403 and one that does not exist 404 (docs/adr/0002)', async () => {
    expect(await refusal(requireAccess(w.em, as(w.users.cy), 'network.member', [w.networks.n]))).toEqual({
      code: 'FORBIDDEN',
      error: 'forbidden',
      detail: 'You are not a member of this network',
    });
    expect(await refusal(requireAccess(w.em, as(w.users.cy), 'network.member', [UNKNOWN]))).toEqual(NOT_FOUND('Network'));
    expect(await refusal(requireAccess(w.em, as(w.users.cy), 'network.member', ['nope']))).toEqual(NOT_FOUND('Network'));
  });

  it('refuses the first refused id of a mix, in the order given, and takes a route its own refusal', async () => {
    const mix = [w.networks.n, UNKNOWN, w.networks.m];
    expect(await refusal(requireAccess(w.em, as(w.users.ada), 'network.member', mix))).toEqual(NOT_FOUND('Network'));
    const own = { denied: (id: string) => forbidden(`not in ${id}`) };
    expect(await refusal(requireAccess(w.em, as(w.users.ada), 'network.member', [w.networks.n, w.networks.m, UNKNOWN], own))).toMatchObject({
      code: 'FORBIDDEN',
      detail: `not in ${w.networks.m}`,
    });
    const sharing = { denied: own.denied, missing: (id: string) => forbidden(`not in ${id}`) };
    expect(await refusal(requireAccess(w.em, as(w.users.ada), 'network.member', [UNKNOWN], sharing))).toMatchObject({ detail: `not in ${UNKNOWN}` });
    expect(await accessibleIds(w.em, as(w.users.ada), 'network.member', mix)).toEqual(new Set([w.networks.n]));
  });
});

describe('network.owner', () => {
  it('allows an owner only', async () => {
    await expect(requireAccess(w.em, as(w.users.ada), 'network.owner', [w.networks.n])).resolves.toEqual([w.networks.n]);
    expect(await accessibleIds(w.em, as(w.users.cy), 'network.owner', [w.networks.n, w.networks.m])).toEqual(new Set([w.networks.m]));
  });

  it('tells a member what they lack, anyone else that they are not in it, and 404 for no network', async () => {
    expect(await refusal(requireAccess(w.em, as(w.users.ben), 'network.owner', [w.networks.n]))).toEqual({
      code: 'FORBIDDEN',
      error: 'forbidden',
      detail: 'Only an owner of this network can do this',
    });
    expect(await refusal(requireAccess(w.em, as(w.users.dee), 'network.owner', [w.networks.n]))).toMatchObject({
      detail: 'You are not a member of this network',
    });
    expect(await refusal(requireAccess(w.em, as(w.users.ben), 'network.owner', [UNKNOWN]))).toEqual(NOT_FOUND('Network'));
  });
});

describe('opportunity.party', () => {
  it('allows both seats and the introducer', async () => {
    for (const userId of [w.users.ada, w.users.ben, w.users.dee]) {
      await expect(resolveAccessible(w.em, as(userId), 'opportunity.party', w.opportunity.slice(0, 8))).resolves.toBe(w.opportunity);
    }
  });

  it('answers anyone else 404 Opportunity, or the refusal the route documents', async () => {
    expect(await refusal(resolveAccessible(w.em, as(w.users.cy), 'opportunity.party', w.opportunity))).toEqual(NOT_FOUND('Opportunity'));
    const noNegotiation = () => conflict('no_negotiation');
    expect(await refusal(resolveAccessible(w.em, as(w.users.cy), 'opportunity.party', w.opportunity, { denied: noNegotiation }))).toEqual({
      code: 'CONFLICT',
      error: 'no_negotiation',
    });
  });

  it('checks a mix of ids at once', async () => {
    expect(await accessibleIds(w.em, as(w.users.dee), 'opportunity.party', [UNKNOWN, w.opportunity])).toEqual(new Set([w.opportunity]));
    expect(await refusal(requireAccess(w.em, as(w.users.dee), 'opportunity.party', [w.opportunity, UNKNOWN]))).toEqual(NOT_FOUND('Opportunity'));
  });
});

describe('conversation.participant', () => {
  it('allows the participants and answers anyone else 404 Conversation', async () => {
    await expect(resolveAccessible(w.em, as(w.users.ben), 'conversation.participant', w.conversation)).resolves.toBe(w.conversation);
    expect(await refusal(resolveAccessible(w.em, as(w.users.cy), 'conversation.participant', w.conversation))).toEqual(NOT_FOUND('Conversation'));
    expect(await accessibleIds(w.em, as(w.users.ada), 'conversation.participant', [w.conversation, UNKNOWN])).toEqual(new Set([w.conversation]));
  });
});

describe('agent.own', () => {
  it("allows the owner's agents and answers another's, or a malformed id, 404 Agent", async () => {
    await expect(requireAccess(w.em, as(w.users.ada), 'agent.own', [w.agents.ada])).resolves.toEqual([w.agents.ada]);
    expect(await refusal(requireAccess(w.em, as(w.users.ada), 'agent.own', [w.agents.ben]))).toEqual(NOT_FOUND('Agent'));
    expect(await refusal(requireAccess(w.em, as(w.users.ada), 'agent.own', ['agent-x']))).toEqual(NOT_FOUND('Agent'));
    expect(await accessibleIds(w.em, as(w.users.ben), 'agent.own', [w.agents.ada, w.agents.ben])).toEqual(new Set([w.agents.ben]));
  });
});

describe('every permission', () => {
  it('checks any number of allowed ids in one statement', async () => {
    const allowed: Record<(typeof PERMISSIONS)[number], [string, string[]]> = {
      'intent.own': [w.users.ben, [w.intents.ben, w.intents.benUnshared]],
      'intent.own.live': [w.users.ben, [w.intents.ben]],
      'intent.visible': [w.users.ada, [w.intents.ada, w.intents.ben]],
      'network.member': [w.users.ada, [w.networks.n]],
      'network.owner': [w.users.cy, [w.networks.m]],
      'opportunity.party': [w.users.ben, [w.opportunity]],
      'conversation.participant': [w.users.ada, [w.conversation]],
      'agent.own': [w.users.ada, [w.agents.ada]],
    };
    for (const permission of PERMISSIONS) {
      const [userId, ids] = allowed[permission];
      const execute = jest.spyOn(w.em, 'execute');
      await expect(requireAccess(w.em, as(userId), permission, ids)).resolves.toEqual(ids);
      expect([permission, execute.mock.calls.length]).toEqual([permission, 1]);
      execute.mockRestore();
    }
  });

  it('allows an empty list without a statement', async () => {
    const execute = jest.spyOn(w.em, 'execute');
    await expect(requireAccess(w.em, as(w.users.cy), 'network.member', [])).resolves.toEqual([]);
    expect(execute).not.toHaveBeenCalled();
    execute.mockRestore();
  });
});

describe('negotiator seat', () => {
  it("lets an agent act for its owner only while it holds the owner's seat", async () => {
    const notSelected = (agentId: string) => ({
      code: 'CONFLICT',
      error: 'not_selected_negotiator',
      detail: `Agent ${agentId} does not hold the negotiation seat; stop this work`,
    });
    expect(await refusal(requireSeatHolder(w.em, w.users.ada, w.agents.ada))).toEqual(notSelected(w.agents.ada));
    await w.em.execute(`update agents set handle_negotiations = true where id = ?`, [w.agents.ada]);
    await expect(requireSeatHolder(w.em, w.users.ada, w.agents.ada, { external: true })).resolves.toBeUndefined();
    await expect(w.em.transactional((tx) => requireSeatHolder(tx, w.users.ada, w.agents.ada, { lock: true }))).resolves.toBeUndefined();
    expect(await refusal(requireSeatHolder(w.em, w.users.ada, w.agents.ben))).toEqual(notSelected(w.agents.ben));
    await w.em.execute(`update agents set status = 'inactive' where id = ?`, [w.agents.ada]);
    expect(await refusal(requireSeatHolder(w.em, w.users.ada, w.agents.ada))).toEqual(notSelected(w.agents.ada));
  });
});
