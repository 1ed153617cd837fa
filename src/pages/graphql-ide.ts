import type * as AltairStatic from 'altair-static';
import express, { type Request, type RequestHandler, type Router } from 'express';
import type { Config } from '../config';

// altair-static is one 520 KB bundle: it loads on the first request for the IDE, not at startup.
const altair = (): typeof AltairStatic => require('altair-static') as typeof AltairStatic;

/** Where the IDE's own files are served from (the altair-static package). */
export const IDE_ASSETS_PATH = '/graphql/ide';

const INITIAL_QUERY = `# A public query: the ways to sign in. Anything signed in needs a header,
# Authorization: Bearer <token> (or x-api-key: <key>), set under "Set Headers";
# subscriptions take the same values as connection parameters.
query Providers {
  authProviders { id name }
}
`;

/** A Host header fit to put in a URL the page is given; anything else falls back to PUBLIC_URL. */
const HOST_RE = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The graphql-ws URL as the browser reached this page (TRUST_PROXY lets X-Forwarded-Proto say https). */
function socketUrl(req: Request, config: Config): string {
  const host = req.get('host');
  const base = host && HOST_RE.test(host) ? `${req.protocol}://${host}` : config.PUBLIC_URL;
  return `${base.replace(/^http/, 'ws')}/graphql`;
}

/** A browser asking for a page (Accept prefers HTML) and not running a GET query. */
function wantsIde(req: Request): boolean {
  return req.query.query === undefined && req.accepts(['application/json', 'text/html']) === 'text/html';
}

/**
 * GET /graphql in a browser: the Altair GraphQL client, every file served from this process
 * (altair-static), with subscriptions over graphql-ws on the same path. GET and POST queries
 * from programs go on to Apollo unchanged. docs/adr/0102-offline-pages.md.
 */
export function graphqlIdeRouter(config: Config): Router {
  const router = express.Router();
  router.get('/graphql', (req, res, next) => {
    if (!wantsIde(req)) return next();
    const html = altair().renderAltair({
      baseURL: `${IDE_ASSETS_PATH}/`,
      endpointURL: '/graphql',
      subscriptionsEndpoint: socketUrl(req, config),
      initialSubscriptionRequestHandlerId: 'graphql-ws',
      initialName: 'Intro Match',
      initialQuery: INITIAL_QUERY,
      instanceStorageNamespace: 'intro-match',
      initialSettings: {
        'alert.disableUpdateNotification': true,
        'banners.disable': true,
        disablePushNotification: true,
        'plugin.list': [],
      },
    });
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(html);
  });
  let assets: RequestHandler | null = null;
  router.use(IDE_ASSETS_PATH, (req, res, next) => {
    assets ??= express.static(altair().getDistDirectory(), { index: false, maxAge: '1d' });
    assets(req, res, next);
  });
  return router;
}
