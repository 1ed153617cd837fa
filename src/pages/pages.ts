import express, { type Express, type RequestHandler } from 'express';
import { join } from 'node:path';
import type { Services } from '../services';
import { devicePageRouter } from './device/device-page.routes';
import { graphqlIdeRouter } from './graphql-ide';
import { indexPageRouter } from './index-page';
import { ASSETS_PATH } from './page-html';

/**
 * The pages the service serves to browsers (docs/adr/0102-offline-pages.md): the index at `/`,
 * the GraphQL IDE on GET /graphql, the device approval page, and their files. Everything they
 * load comes from this process. `rateLimit` is the API's request limiter, for the page's forms.
 */
export function mountPages(app: Express, services: Services, rateLimit: RequestHandler): void {
  // Copied beside the compiled files by the build (swc --copy-files), so dist finds them too.
  app.use(ASSETS_PATH, express.static(join(__dirname, 'assets'), { index: false, maxAge: '1h' }));
  app.use(indexPageRouter(services));
  app.use(graphqlIdeRouter(services.config));
  app.use(devicePageRouter(services, rateLimit));
}
