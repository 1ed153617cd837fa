import { dropDatabase } from './db';

export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env.IM_TEST_ADMIN_URL;
  const template = process.env.IM_TEST_TEMPLATE;
  if (adminUrl && template) await dropDatabase(adminUrl, template).catch(() => undefined);
  const pg = (globalThis as { __IM_PG__?: { stop(): Promise<void> } }).__IM_PG__;
  if (pg) await pg.stop();
}
