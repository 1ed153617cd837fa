import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../domain/auth/actor';
import { userByEmail } from '../domain/accounts/users.repository';
import type { Services } from '../services';
import { intentByText, ownedNetworkByTitle } from './demo-seed.repository';

/** The demo network: public, so anyone signed in can join it and discover its members' intents. */
export const DEMO_NETWORK = {
  title: 'Intro Match demo',
  prompt: 'Founders, investors and builders trying Intro Match out. Join it, publish an intent, and discover who complements you.',
  joinPolicy: 'anyone' as const,
};

/**
 * People and intents written for the demo: a few needs and offers that meet each other (funding
 * and fundraising, design help and a design need, an engineering gig and an engineer), so a
 * first discover has real counterparts. Generic on purpose; not taken from any evaluation set.
 */
export const DEMO_PEOPLE = [
  {
    name: 'Maya Okafor',
    email: 'maya@demo.example.com',
    intents: ['Angel investor writing first cheques of 25k to 50k euros into pre-seed climate-tech startups in Berlin and elsewhere in Europe.'],
  },
  {
    name: 'Jonas Weber',
    email: 'jonas@demo.example.com',
    intents: ['Partner at a seed fund investing in climate and energy startups in Germany; I meet founders raising their first institutional round.'],
  },
  {
    name: 'Priya Raman',
    email: 'priya@demo.example.com',
    intents: [
      'Product designer with eight years in B2B software, offering part-time design help to small teams in Amsterdam.',
      'Looking for a freelance backend developer who knows TypeScript and PostgreSQL for a three-month remote project.',
    ],
  },
  {
    name: 'Tomás Silva',
    email: 'tomas@demo.example.com',
    intents: [
      'Backend developer with TypeScript and PostgreSQL experience, available for freelance projects from next month, remote.',
      'Raising a seed round for a logistics software startup in Lisbon after a year of revenue; looking for investors who know the sector.',
    ],
  },
] as const;

export interface SeedResult {
  networkId: string;
  users: Array<{ id: string; name: string; email: string }>;
  /** What this run added; zero everywhere on a second run. */
  created: { users: number; networks: number; intents: number };
}

/**
 * Loads the demo into the configured database through the same services the API uses (accounts,
 * networks, intents, matching), so what it writes is what a person would have written. Idempotent:
 * people are found by email, the network by its title among the first person's networks, and an
 * intent by its owner and text; a second run adds nothing.
 */
export async function seedDemo(services: Services): Promise<SeedResult> {
  const created = { users: 0, networks: 0, intents: 0 };
  const inContext = <T>(fn: (em: EntityManager) => Promise<T>) => RequestContext.create(services.orm.em, () => fn(services.orm.em as EntityManager));
  const actor = (userId: string): Actor => ({ userId, credential: 'session' });

  const users: SeedResult['users'] = [];
  for (const person of DEMO_PEOPLE) {
    const user = await inContext(async (em) => {
      const known = await userByEmail(em, person.email);
      if (known) return known;
      created.users += 1;
      return services.accounts.createUser({ name: person.name, email: person.email, state: 'active' });
    });
    users.push({ id: user.id, name: person.name, email: person.email });
  }

  const owner = users[0];
  const networkId = await inContext(async (em) => {
    const found = await ownedNetworkByTitle(em, DEMO_NETWORK.title, owner.id);
    if (found) return found;
    created.networks += 1;
    // The demo's owner needs early access like anyone creating a network; the seed grants it for this run only.
    services.config.EARLY_ACCESS.add(owner.email);
    return (await services.networks.networks.create(actor(owner.id), DEMO_NETWORK)).id;
  });

  const intentIds: string[] = [];
  for (const [i, person] of DEMO_PEOPLE.entries()) {
    const user = users[i];
    if (user.id !== owner.id) await inContext(() => services.networks.members.join(actor(user.id), networkId));
    for (const text of person.intents) {
      const id = await inContext(async (em) => {
        const known = await intentByText(em, user.id, text);
        if (known) return known;
        created.intents += 1;
        return (await services.intents.create(actor(user.id), { description: text, networkIds: [networkId] })).intent.id;
      });
      intentIds.push(id);
    }
  }
  // Indexed now rather than by the hook's background work, so the first discover finds them.
  await inContext(() => services.matching.indexIntents(intentIds));
  return { networkId, users, created };
}
