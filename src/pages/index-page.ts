import express, { type Router } from 'express';
import { DomainError } from '../domain/shared/errors';
import type { Services } from '../services';
import { escapeHtml, pageHtml, sendPage } from './page-html';

const page404 = (topics: string[]) => topics.map((t) => `<a href="/docs/${encodeURIComponent(t)}">${escapeHtml(t)}</a>`).join(', ');

/**
 * The guides at /docs and /docs/:topic, as a person reads them. The web app (packages/web) took
 * `/` from the index page this module served (docs/adr/0097-web-app.md); its About page and
 * footer link the guides, the REST reference, the GraphQL IDE and the OpenAPI document.
 */
export function indexPageRouter(services: Services): Router {
  const router = express.Router();
  const topics = services.docs.read().topics;
  // The guides as a person reads them: the Markdown source, as written (they are the service's own files).
  router.get(['/docs', '/docs/:topic'], (req, res) => {
    const topic = typeof req.params.topic === 'string' ? req.params.topic : null;
    try {
      const page = services.docs.read(topic);
      const title = page.topic ?? 'Overview';
      const list = page.topic ? '' : `<p>Topics: ${page404(topics)}</p>\n`;
      sendPage(res, 200, pageHtml(title, `<p><a href="/">Intro Match</a> / <a href="/docs">guides</a> / ${escapeHtml(title)}</p>\n${list}<pre class="markdown">${escapeHtml(page.content)}</pre>`));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      sendPage(res, 404, pageHtml('Unknown topic', `<h1>Unknown topic</h1><p>Topics: ${page404(topics)}</p>`));
    }
  });
  return router;
}
