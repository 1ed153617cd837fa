import { runShard } from '../setup/shard';

// One share of the unit project's files, in one module registry (test/setup/shard.ts).
runShard('unit', 1);
