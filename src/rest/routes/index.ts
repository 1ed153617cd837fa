import type { RouteTable } from '../route-table';
import { accountRoutes } from './accounts.routes';
import { agentRoutes } from './agents.routes';
import { authRoutes } from './auth.routes';
import { intentRoutes } from './intents.routes';
import { matchingRoutes } from './matching.routes';
import { networkRoutes } from './networks.routes';
import { webRoutes } from './web.routes';
import { storageRoutes } from './storage.routes';
import { legacyRoutes } from './legacy.routes';
import { conversationRoutes } from './conversations.routes';
import { eventRoutes } from './events.routes';
import { opportunityRoutes } from './opportunities.routes';

export interface RouteGroup {
  /** The OpenAPI tag. */
  name: string;
  description: string;
  /** The earlier route group (legacy-api.md): DID sessions. */
  legacy?: boolean;
  routes: RouteTable;
}

/** Every area's table, in matching order; add new ones here (one line each, in the import list and the array). */
export const routeGroups: RouteGroup[] = [
  { name: 'accounts', description: 'The account, users, onboarding, subscribe and docs', routes: accountRoutes },
  { name: 'agents', description: 'Agents and the negotiation seat', routes: agentRoutes },
  { name: 'storage', description: 'Image uploads and the images served', routes: storageRoutes },
  { name: 'auth', description: 'Sign-in (email code, SIWE, device flow), API keys and sessions', routes: authRoutes },
  { name: 'web', description: 'Scrape, enrichment and web pages', routes: webRoutes },
  { name: 'intents', description: 'Intents: preparation, creation, sharing', routes: intentRoutes },
  { name: 'networks', description: 'Networks, members, invitations, join and network requests', routes: networkRoutes },
  { name: 'matching', description: 'Discovering counterparties', routes: matchingRoutes },
  { name: 'legacy', description: 'The earlier route group (legacy-api.md): indexes, items, embeddings, private conversations, completions, profile', legacy: true, routes: legacyRoutes },
  { name: 'conversations', description: 'Direct conversations and the personal-agent thread', routes: conversationRoutes },
  { name: 'events', description: 'The event stream and its log', routes: eventRoutes },
  { name: 'opportunities', description: 'Opportunities and negotiations', routes: opportunityRoutes },
];

export const routeTables: RouteTable[] = routeGroups.map((g) => g.routes);
