import { Migration } from '@mikro-orm/migrations';

/** EIP-155 chain ids beyond 2^31 (real chains use them) must fit the wallet identity's chain. */
export class Migration20261122012000WalletChains extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "wallet_identities" alter column "chain_id" type bigint using ("chain_id"::bigint);`);
  }
}
