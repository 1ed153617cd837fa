import type { RouteTable } from '../route-table';
import { accountRoutes } from './accounts.routes';
import { agentRoutes } from './agents.routes';
import { storageRoutes } from './storage.routes';

/** Every area's table; add new ones here (one line each). */
export const routeTables: RouteTable[] = [
  accountRoutes,
  agentRoutes,
  storageRoutes,
];
