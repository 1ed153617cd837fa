import express, { type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document';

/** swagger-ui-dist's files the reference page uses; nothing else of the package is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui.css.map': 'application/json',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-bundle.js.map': 'application/json',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Intro Match API reference</title>
<link rel="icon" type="image/png" href="/api/reference/assets/favicon-32x32.png">
<link rel="stylesheet" href="/api/reference/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/reference/assets/swagger-ui-bundle.js"></script>
<script src="/api/reference/start.js"></script>
</body>
</html>
`;

// No validator badge (it would call an outside host); "Try it out" sends requests to this server.
const START = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#reference',
  validatorUrl: null,
  deepLinking: true,
  persistAuthorization: true,
  displayRequestDuration: true,
});
`;

export function packageVersion(): string {
  // src/rest/openapi and dist/rest/openapi are both three levels under the package root.
  return JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version;
}

/**
 * The paths apiDocsRouter answers (all GET), which come before the route rows: the REST fast
 * lane leaves a request any of them matches to Express (src/rest/route-lookup.ts).
 */
export const API_DOCS_PATHS = {
  document: '/api/openapi.json',
  page: '/api/reference',
  script: '/api/reference/start.js',
  asset: '/api/reference/assets/:file',
} as const;

/**
 * GET /api/openapi.json (public) and GET /api/reference, an interactive reference (Swagger UI)
 * whose every file the service serves itself, so it works with no internet.
 */
export function apiDocsRouter(schema: GraphQLSchema): Router {
  const router = express.Router();
  let doc: OpenApiDocument | null = null;
  // The package's main module evaluates its 1.4 MB browser bundle (0.5 s); this one only names the folder.
  const assetsDir: string = require('swagger-ui-dist/absolute-path.js')();
  // The page's own script is a file, not inline, so a strict Content-Security-Policy allows it.
  const security = (res: express.Response) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
  };

  router.get(API_DOCS_PATHS.document, (_req, res) => {
    doc ??= buildOpenApiDocument(schema, packageVersion());
    res.json(doc);
  });
  router.get(API_DOCS_PATHS.page, (_req, res) => {
    security(res);
    res.type('html').send(PAGE);
  });
  router.get(API_DOCS_PATHS.script, (_req, res) => {
    security(res);
    res.type('text/javascript').send(START);
  });
  router.get(API_DOCS_PATHS.asset, (req, res, next) => {
    const type = ASSETS[req.params.file];
    if (!type) return next();
    res.setHeader('Content-Type', type);
    res.sendFile(join(assetsDir, req.params.file), { maxAge: 24 * 3600 * 1000 });
  });
  return router;
}
