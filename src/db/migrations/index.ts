import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Foundation } from './20261122000000-foundation';
import { Migration20261122011000Accounts } from './20261122011000-accounts';

/** Applied in order at start-up. New migrations go at the end, one line each. */
export const migrationsList: MigrationObject[] = [
  { name: '20261122000000-foundation', class: Migration20261122000000Foundation },
  { name: '20261122011000-accounts', class: Migration20261122011000Accounts },
];
