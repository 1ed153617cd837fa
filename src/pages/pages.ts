import express, { type Express } from 'express';
import { join } from 'node:path';
import type { Services } from '../services';
import { graphqlIdeRouter } from './graphql-ide';
import { indexPageRouter } from './index-page';
import { ASSETS_PATH } from './page-html';
import { webAppRouter } from './web-app';

/**
 * The pages the service serves to browsers (docs/adr/0102-offline-pages.md): the web app at `/`
 * and its client-side routes, /device among them (docs/adr/0097-web-app.md), the guides, the
 * GraphQL IDE on GET /graphql, and their files. Everything they load comes from this process.
 */
export function mountPages(app: Express, services: Services): void {
  // Copied beside the compiled files by the build (swc --copy-files), so dist finds them too.
  app.use(ASSETS_PATH, express.static(join(__dirname, 'assets'), { index: false, maxAge: '1h' }));
  app.use(indexPageRouter(services));
  app.use(graphqlIdeRouter(services.config));
  app.use(webAppRouter(services.config));
}
