import express, { type Router } from 'express';
import { DomainError } from '../domain/shared/errors';
import type { Services } from '../services';
import { escapeHtml, pageHtml, sendPage } from './page-html';

const page404 = (topics: string[]) => topics.map((t) => `<a href="/docs/${encodeURIComponent(t)}">${escapeHtml(t)}</a>`).join(', ');

/**
 * GET /: where a developer lands. It links what there is to read and click, all served by this
 * process. Kept in this one module because a web app is to take `/` later
 * (design.md: packages/web); this page then moves under another path or goes.
 */
export function indexPageRouter(services: Services): Router {
  const router = express.Router();
  const topics = services.docs.read().topics;
  const metricsNote = services.config.METRICS_TOKEN ? ' (needs the metrics token)' : '';
  const body = `
<h1>Intro Match</h1>
<p class="lead">An introduction matching service: intents, networks, opportunities, negotiations, events.</p>

<h2>Explore the API</h2>
<ul class="links">
  <li><a href="/api/reference">REST reference</a>: every route of <code>/api</code>, with its request and response (<a href="/api/openapi.json">OpenAPI document</a>)</li>
  <li><a href="/graphql">GraphQL IDE</a>: queries, mutations and subscriptions against <code>/graphql</code> (WebSocket on the same path)</li>
  <li><a href="/device">Approve a device</a>: the page a command-line login sends you to</li>
</ul>

<h2>Guides</h2>
<p>The same Markdown an agent reads signed in from <code>GET /api/docs?topic=…</code> (the files of <code>docs/topics/</code>).</p>
<ul class="links">
  <li><a href="/docs">Overview</a></li>
${topics.map((t) => `  <li><a href="/docs/${encodeURIComponent(t)}">${escapeHtml(t)}</a></li>`).join('\n')}
</ul>

<h2>Operations</h2>
<ul class="links">
  <li><a href="/healthz">/healthz</a>: the process is up</li>
  <li><a href="/readyz">/readyz</a>: the database and the vector index answer</li>
  <li><a href="/metrics">/metrics</a>: Prometheus metrics${metricsNote}</li>
</ul>
`;
  const html = pageHtml('Intro Match', body);
  router.get('/', (_req, res) => sendPage(res, 200, html));

  // The guides as a person reads them: the Markdown source, as written (they are the service's own files).
  router.get(['/docs', '/docs/:topic'], (req, res) => {
    const topic = typeof req.params.topic === 'string' ? req.params.topic : null;
    try {
      const page = services.docs.read(topic);
      const title = page.topic ?? 'Overview';
      sendPage(res, 200, pageHtml(title, `<p><a href="/">Intro Match</a> / guides / ${escapeHtml(title)}</p>\n<pre class="markdown">${escapeHtml(page.content)}</pre>`));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      sendPage(res, 404, pageHtml('Unknown topic', `<h1>Unknown topic</h1><p>Topics: ${page404(topics)}</p>`));
    }
  });
  return router;
}
