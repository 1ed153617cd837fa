import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Foundation } from './20261122000000-foundation';
import { Migration20261122010000Auth } from './20261122010000-auth';
import { Migration20261122011000Accounts } from './20261122011000-accounts';
import { Migration20261122012000WalletChains } from './20261122012000-wallet-chains';
import { Migration20261122013000DeviceDecisions } from './20261122013000-device-decisions';
import { Migration20261122020000Networks } from './20261122020000-networks';
import { Migration20261122030000Intents } from './20261122030000-intents';
import { Migration20261122040000Matching } from './20261122040000-matching';
import { Migration20261122050000Conversations } from './20261122050000-conversations';
import { Migration20261122051000Events } from './20261122051000-events';
import { Migration20261122052000ConsumerRedelivery } from './20261122052000-consumer-redelivery';
import { Migration20261122060000Web } from './20261122060000-web';
import { Migration20261122070000Opportunities } from './20261122070000-opportunities';
import { Migration20261122080000Legacy } from './20261122080000-legacy';
import { Migration20261122081000LegacyFixes } from './20261122081000-legacy-fixes';
import { migrationNames, type MigrationName } from './names';

/** Each name's class: the record's type makes a name without its class, or a stray class, a type error. */
const classes: Record<MigrationName, MigrationObject['class']> = {
  '20261122000000-foundation': Migration20261122000000Foundation,
  '20261122010000-auth': Migration20261122010000Auth,
  '20261122011000-accounts': Migration20261122011000Accounts,
  '20261122012000-wallet-chains': Migration20261122012000WalletChains,
  '20261122013000-device-decisions': Migration20261122013000DeviceDecisions,
  '20261122020000-networks': Migration20261122020000Networks,
  '20261122030000-intents': Migration20261122030000Intents,
  '20261122040000-matching': Migration20261122040000Matching,
  '20261122050000-conversations': Migration20261122050000Conversations,
  '20261122051000-events': Migration20261122051000Events,
  '20261122052000-consumer-redelivery': Migration20261122052000ConsumerRedelivery,
  '20261122060000-web': Migration20261122060000Web,
  '20261122070000-opportunities': Migration20261122070000Opportunities,
  '20261122080000-legacy': Migration20261122080000Legacy,
  '20261122081000-legacy-fixes': Migration20261122081000LegacyFixes,
};

/** Applied in the order of ./names.ts at start-up, when any is pending (src/db/orm.ts). */
export const migrationsList: MigrationObject[] = migrationNames.map((name) => ({ name, class: classes[name] }));
