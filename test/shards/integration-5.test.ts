import { runShard } from '../setup/shard';

// One share of the integration project's files, in one module registry (test/setup/shard.ts).
runShard('integration', 5);
