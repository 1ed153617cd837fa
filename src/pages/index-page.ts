import express, { type Router } from 'express';
import type { Services } from '../services';
import { escapeHtml, pageHtml, sendPage } from './page-html';

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
<ul class="links">
  <li><a href="/api/docs">Overview</a> <small class="muted">(<code>GET /api/docs</code>, JSON with Markdown content)</small></li>
${topics.map((t) => `  <li><a href="/api/docs?topic=${encodeURIComponent(t)}">${escapeHtml(t)}</a></li>`).join('\n')}
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
  return router;
}
