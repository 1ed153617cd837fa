/**
 * The migrations' names, in the order they apply: by timestamp, which each name begins with (a
 * test checks the order and that every file of this folder is named). Kept apart from the
 * classes (./index.ts) so that a process can tell its database is up to date without loading
 * MikroORM's migrator (src/db/orm.ts). A new migration takes a timestamp after the last one of
 * its area (docs/contributing.md) and its name goes where the timestamp puts it.
 */
export const migrationNames = [
  '20261122000000-foundation',
  '20261122010000-auth',
  '20261122011000-accounts',
  '20261122012000-wallet-chains',
  '20261122013000-device-decisions',
  '20261122020000-networks',
  '20261122030000-intents',
  '20261122040000-matching',
  '20261122050000-conversations',
  '20261122051000-events',
  '20261122052000-consumer-redelivery',
  '20261122060000-web',
  '20261122070000-opportunities',
  '20261122080000-legacy',
  '20261122081000-legacy-fixes',
] as const;

export type MigrationName = (typeof migrationNames)[number];
