import type { TestApp } from '../helpers/app';
import { mintDidSession, type MintedSession } from './did-session';

/** A DID-session caller (its account is made on first use, as a wallet's first sign-in). */
export const didCaller = (): Promise<MintedSession> => mintDidSession();

export async function createIndex(app: TestApp, who: MintedSession, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await app.http.post('/api/indexes').set(who.headers).send(body);
  if (res.status !== 201) throw new Error(`create index: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A web page node given directly (no fetching). */
export async function createPage(app: TestApp, who: MintedSession, title: string, content: string): Promise<string> {
  const res = await app.http.post('/api/web-pages').set(who.headers).send({ url: `https://example.com/${encodeURIComponent(title)}`, title, content });
  if (res.status !== 201) throw new Error(`create page: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.webPage.id;
}

export async function addItem(app: TestApp, who: MintedSession, indexId: string, itemId: string): Promise<Record<string, any>> {
  const res = await app.http.post(`/api/indexes/${indexId}/items/${itemId}`).set(who.headers);
  if (res.status !== 201) throw new Error(`add item: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
