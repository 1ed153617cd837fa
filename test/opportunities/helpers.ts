import { readEvents } from '../../src/domain/events/event-log';
import type { TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { createIntent, createNetwork } from '../matching/factories';

export const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
export const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Texts of two intents that complement each other (a founder raising and a seed investor). */
export const FOUNDER_TEXT = 'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.';
export const INVESTOR_TEXT = 'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.';

export interface Party {
  user: TestUser;
  intentId: string;
}

export interface World {
  networkId: string;
  a: Party;
  b: Party;
}

/** Two people in one network, each with an intent shared there (written the way the intents area does). */
export async function twoParties(app: TestApp, textA = FOUNDER_TEXT, textB = INVESTOR_TEXT, names: [string, string] = ['Ada Founder', 'Ben Investor']): Promise<World> {
  const ua = await createUser(app, { name: names[0] });
  const ub = await createUser(app, { name: names[1] });
  const network = await createNetwork(app, [ua.user.id, ub.user.id], 'Fintech');
  const ia = await createIntent(app, ua.user.id, textA, [network.id]);
  const ib = await createIntent(app, ub.user.id, textB, [network.id]);
  return { networkId: network.id, a: { user: ua, intentId: ia.id }, b: { user: ub, intentId: ib.id } };
}

/** Opens the opportunity between A's and B's intents as A; returns its id. */
export async function openAsA(app: TestApp, w: World): Promise<string> {
  const res = await app.http
    .post(`/api/intents/${w.a.intentId}/opportunities`)
    .set(w.a.user.auth)
    .send({ counterparties: [{ intentId: w.b.intentId, networkId: w.networkId }] });
  if (res.status !== 200) throw new Error(`open: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.opportunities[0].opportunityId;
}

export function turn(app: TestApp, who: TestUser, opportunityId: string, action: string, message = `a ${action} message`, query = '') {
  return app.http.post(`/api/opportunities/${opportunityId}/negotiation/turns${query}`).set(who.auth).send({ action, message });
}

export async function negotiationOf(app: TestApp, who: TestUser, opportunityId: string) {
  const res = await app.http.get(`/api/opportunities/${opportunityId}/negotiation`).set(who.auth);
  if (res.status !== 200) throw new Error(`read negotiation: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.negotiation;
}

/** Frames of a user's log of the given types, oldest first. */
export async function framesOf(app: TestApp, userId: string, ...types: string[]): Promise<Array<Record<string, any>>> {
  const all = await app.withEm((em) => readEvents(em, userId, null, 1000));
  return types.length ? all.filter((f) => types.includes(f.type)) : all;
}

export async function sql<T = Record<string, any>>(app: TestApp, text: string, params: unknown[] = []): Promise<T[]> {
  return app.withEm((em) => em.execute<T[]>(text, params));
}
