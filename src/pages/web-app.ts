import express, { type Request, type Response, type Router } from 'express';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import { escapeHtml } from './page-html';

/**
 * packages/web/dist, the web app's build (`npm run build`). Two levels up from this file both in
 * src/pages and in dist/pages, so the compiled service finds it too.
 */
export const WEB_APP_DIST = join(__dirname, '..', '..', 'packages', 'web', 'dist');

/** Paths the app never answers: the API, the GraphQL endpoint and IDE, operations, the guides, page files. */
const RESERVED = /^\/(api|graphql|metrics|healthz|readyz|health|docs|_pages|assets)(\/|$)/;

/**
 * The app's pages load everything from this origin: scripts, styles, images (data: and blob:
 * for the avatar preview), and the API it calls.
 */
export const APP_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'";

/** index.html as built, with the service's PUBLIC_URL written in (SIWE messages must name it); re-read when the build changes. */
function indexHtmlReader(dir: string, config: Config): () => string | null {
  let cached: { mtimeMs: number; html: string } | null = null;
  const file = join(dir, 'index.html');
  const meta = `<meta name="intro-match-public-url" content="${escapeHtml(config.PUBLIC_URL)}">`;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return null;
    }
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(file, 'utf8').replace('<head>', `<head>\n    ${meta}`) };
    return cached.html;
  };
}

const notBuilt = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Intro Match</title>
<link rel="stylesheet" href="/_pages/pages.css"></head>
<body><main><h1>Intro Match</h1>
<p>The web app is not built yet: run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p>
<ul class="links"><li><a href="/api/reference">REST reference</a> (<a href="/api/openapi.json">OpenAPI document</a>)</li><li><a href="/graphql">GraphQL IDE</a></li><li><a href="/docs">Guides</a></li></ul>
</main></body></html>
`;

/**
 * The web app (packages/web, docs/adr/0097-web-app.md) at `/`: its hashed files under /assets
 * (cached for a year), and index.html for `/` and every client-side route (`/device`,
 * `/intents/…`), so a reload or a link lands on the right page. Never for the API, GraphQL,
 * operations or the guides, and never for a path that names a file.
 */
export function webAppRouter(config: Config, dir = WEB_APP_DIST): Router {
  const router = express.Router();
  const indexHtml = indexHtmlReader(dir, config);
  router.use('/assets', express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d' }));
  router.get('/favicon.svg', (_req, res, next) => {
    res.sendFile(join(dir, 'favicon.svg'), { maxAge: '1d' }, (err) => err && next());
  });
  router.get(/.*/, (req: Request, res: Response, next) => {
    if (RESERVED.test(req.path) || /\.[a-z0-9]+$/i.test(req.path)) return next();
    const html = indexHtml();
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (!html) {
      res.setHeader('Content-Security-Policy', APP_CSP);
      res.status(503).send(notBuilt);
      return;
    }
    res.setHeader('Content-Security-Policy', APP_CSP);
    res.status(200).send(html);
  });
  return router;
}
