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

/**
 * Applied in this order at start-up: by timestamp, which the name begins with (a test checks
 * the list is ascending and names every file here). A new migration takes a timestamp after
 * the last one of its area (docs/contributing.md) and its line goes where the timestamp puts it.
 */
export const migrationsList: MigrationObject[] = [
  { name: '20261122000000-foundation', class: Migration20261122000000Foundation },
  { name: '20261122010000-auth', class: Migration20261122010000Auth },
  { name: '20261122011000-accounts', class: Migration20261122011000Accounts },
  { name: '20261122012000-wallet-chains', class: Migration20261122012000WalletChains },
  { name: '20261122013000-device-decisions', class: Migration20261122013000DeviceDecisions },
  { name: '20261122020000-networks', class: Migration20261122020000Networks },
  { name: '20261122030000-intents', class: Migration20261122030000Intents },
  { name: '20261122040000-matching', class: Migration20261122040000Matching },
  { name: '20261122050000-conversations', class: Migration20261122050000Conversations },
  { name: '20261122051000-events', class: Migration20261122051000Events },
  { name: '20261122052000-consumer-redelivery', class: Migration20261122052000ConsumerRedelivery },
  { name: '20261122060000-web', class: Migration20261122060000Web },
  { name: '20261122070000-opportunities', class: Migration20261122070000Opportunities },
  { name: '20261122080000-legacy', class: Migration20261122080000Legacy },
  { name: '20261122081000-legacy-fixes', class: Migration20261122081000LegacyFixes },
];
