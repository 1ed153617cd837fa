import type { RouteTable } from '../route-table';
import { accountRoutes } from './accounts.routes';
import { matchingRoutes } from './matching.routes';

/** Every area's table; add new ones here (one line each). */
export const routeTables: RouteTable[] = [accountRoutes, matchingRoutes];
