import type { EntityManager } from '@mikro-orm/postgresql';
import { extractFacets, FACETS_VERSION, type Facets } from '../matching/facets.rules';
import { peopleRows, sideRows } from './opportunity.repository';
import type { People } from './opportunity.views';

/** An intent with what the card and the negotiator read from it. */
export interface IntentSide {
  intentId: string;
  userId: string;
  name: string;
  avatar: string;
  text: string;
  summary: string;
  status: string;
  archived: boolean;
  facets: Facets;
}

/**
 * Intents with their owners and facets, in one query. Facets come from matching's stored row
 * when it is current, else they are read from the text with the same rules.
 */
export async function loadSides(em: EntityManager, intentIds: string[]): Promise<Map<string, IntentSide>> {
  const unique = [...new Set(intentIds)];
  if (!unique.length) return new Map();
  const rows = await sideRows(em, unique);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        intentId: r.id,
        userId: r.user_id,
        name: r.name,
        avatar: r.avatar,
        text: r.payload,
        summary: r.summary,
        status: r.status,
        archived: !!r.archived_at,
        facets: r.facets?.v === FACETS_VERSION ? r.facets : extractFacets(r.payload),
      },
    ]),
  );
}

/** Names and avatars of users, for the views. */
export async function loadPeople(em: EntityManager, userIds: Array<string | null>): Promise<People> {
  const ids = [...new Set(userIds.filter((x): x is string => !!x))];
  if (!ids.length) return new Map();
  const rows = await peopleRows(em, ids);
  return new Map(rows.map((r) => [r.id, { userId: r.id, name: r.name, avatar: r.avatar }]));
}
