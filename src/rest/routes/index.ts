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

/** Every area's table; add new ones here (one line each, in the import list and the array). */
export const routeTables: RouteTable[] = [
  accountRoutes,
  agentRoutes,
  storageRoutes,
  authRoutes,
  webRoutes,
  intentRoutes,
  networkRoutes,
  matchingRoutes,
  legacyRoutes,
  conversationRoutes,
  eventRoutes,
  opportunityRoutes,
];
