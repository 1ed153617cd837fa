/**
 * Loads a small demo into the configured database (embedded under DATA_DIR by default): four
 * people, the public network "Intro Match demo" and their intents, so a first discover has
 * counterparts. Idempotent. Needs the service stopped when the database is embedded.
 *   npm run seed
 */
import { seedDemo } from './demo-seed';
import { runCommand, say } from './command-runner';

runCommand('seed', async (runtime) => {
  const result = await seedDemo(runtime.services);
  const { users, networks, intents } = result.created;
  say(users + networks + intents ? `Seeded: ${users} people, ${networks} network, ${intents} intents.` : 'The demo was already there; nothing added.');
  say(`Demo network "Intro Match demo": ${result.networkId} (public: join it with POST /api/networks/${result.networkId}/join)`);
  for (const u of result.users) say(`  ${u.name} <${u.email}>`);
});
