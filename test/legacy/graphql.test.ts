import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app';
import { addItem, createIndex, createPage, didCaller } from './helpers';

describe('the earlier route group over GraphQL', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const gql = (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.http.post('/graphql').set(headers).send({ query, variables }).expect(200);

  it('walks the graph: index → items → nodes, embeddings → index and node', async () => {
    const alice = await didCaller();
    const created = await gql(`mutation($input: CreateIndexInput) { createIndex(input: $input) { id controllerDID } }`, { input: { title: 'Graph' } }, alice.headers);
    const indexId = created.body.data.createIndex.id;
    const page = await createPage(app, alice, 'Moss', 'Moss grows on the north side of trees in damp forests.');
    const intent = (await app.http.post('/api/intents').set(alice.headers).send({ description: 'Looking for a mycologist to identify forest mushrooms in Oregon.' }).expect(200)).body.intentId;
    await gql(`mutation($i: ID!, $n: ID!) { addIndexItem(indexId: $i, itemId: $n) { id } }`, { i: indexId, n: page }, alice.headers);
    await addItem(app, alice, indexId, intent);
    const res = await gql(
      `query($id: ID!) { index(id: $id) { title controller { id } items(input: { limit: 10 }) { items { type node { __typename ... on WebPage { title } ... on IntentNode { description } } } } } }`,
      { id: indexId },
    );
    const items = res.body.data.index.items.items;
    expect(items).toEqual([
      { type: 'Intent', node: { __typename: 'IntentNode', description: 'Looking for a mycologist to identify forest mushrooms in Oregon.' } },
      { type: 'WebPage', node: { __typename: 'WebPage', title: 'Moss' } },
    ]);
    const emb = await gql(
      `query($in: EmbeddingsInput!) { embeddings(input: $in) { modelName context { category } index { id } item { __typename ... on WebPage { id } } } }`,
      { in: { indexId, itemId: page } },
    );
    expect(emb.body.data.embeddings).toEqual([{ modelName: 'local-terms-v1-256', context: { category: 'document' }, index: { id: indexId }, item: { __typename: 'WebPage', id: page } }]);
    const refused = await gql(`mutation { createIndex { id } }`, {});
    expect(refused.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('streams a conversation over graphql-ws with a DID session as connection param', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const page = await createPage(app, alice, 'Ferns', 'Ferns reproduce by spores rather than seeds.');
    await addItem(app, alice, index.id, page);
    const c = (await app.http.post('/api/api/conversations').set(alice.headers).send({ sources: [index.id] }).expect(200)).body;
    const client = createClient({ url: `${app.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: alice.headers.Authorization }, retryAttempts: 0 });
    const frames: Array<{ channel: string; data: any; id: string }> = [];
    try {
      const done = new Promise<void>((resolve, reject) => {
        const stop = client.subscribe<{ privateConversationUpdates: { channel: string; data: any; id: string } }>(
          { query: `subscription($id: ID!) { privateConversationUpdates(conversationId: $id) { channel data id } }`, variables: { id: c.id } },
          {
            next: (v) => {
              if (v.errors) return reject(new Error(JSON.stringify(v.errors)));
              const f = v.data!.privateConversationUpdates;
              frames.push(f);
              if (f.channel === 'end') {
                stop();
                resolve();
              }
            },
            error: reject,
            complete: () => resolve(),
          },
        );
      });
      // Proven live when a change made now reaches it (no fixed sleep).
      for (let i = 0; i < 100 && !frames.some((f) => f.data?.type === 'conversation.updated'); i++) {
        await app.http.put(`/api/api/conversations/${c.id}`).set(alice.headers).send({ summary: `try ${i}` }).expect(200);
        await new Promise((r) => setTimeout(r, 50));
      }
      await app.http.post(`/api/api/conversations/${c.id}/messages`).set(alice.headers).send({ role: 'user', content: 'How do ferns reproduce?' }).expect(200);
      await done;
    } finally {
      await client.dispose();
    }
    const end = frames.at(-1)!;
    expect(end.data.content).toContain('spores rather than seeds');
    expect(frames.filter((f) => f.channel === 'chunk').map((f) => f.data).join('')).toBe(end.data.content);
  });
});
