import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A local web server for fetcher tests, on 127.0.0.1. Tests register a handler per path and
 * read `requests` to see what reached it. Only loopback: nothing leaves the machine.
 */
export interface PageServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  requests: Array<{ path: string; headers: IncomingMessage['headers'] }>;
  route(path: string, handler: PageHandler): void;
  url(path: string): string;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const routes = new Map<string, PageHandler>();
  const requests: PageServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push({ path: req.url ?? '/', headers: req.headers });
    const handler = routes.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    requests,
    route: (path, handler) => void routes.set(path, handler),
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise<void>((r) => {
        // Slow-server tests leave sockets open on purpose; end them so close() returns.
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Handlers for the usual cases. */
export const serve = {
  html:
    (body: string, headers: Record<string, string> = {}): PageHandler =>
    (_req, res) =>
      void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body),
  text:
    (body: string, contentType = 'text/plain; charset=utf-8'): PageHandler =>
    (_req, res) =>
      void res.writeHead(200, { 'content-type': contentType }).end(body),
  redirect:
    (location: string, status = 302): PageHandler =>
    (_req, res) =>
      void res.writeHead(status, { location }).end(),
  status:
    (status: number): PageHandler =>
    (_req, res) =>
      void res.writeHead(status, { 'content-type': 'text/html' }).end(`<html><body><p>Status ${status}</p></body></html>`),
  /** Answers the headers, then never sends the body. */
  stall: (): PageHandler => (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><body><p>');
  },
  /** Streams `bytes` of HTML without a Content-Length. */
  large:
    (bytes: number): PageHandler =>
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = `<p>${'x'.repeat(1020)}</p>`;
      let sent = 0;
      const write = () => {
        while (sent < bytes) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      res.on('close', () => (sent = bytes));
      write();
    },
};

/** A readable article page: navigation and footer around a real text. */
export function articleHtml(opts: { title?: string; description?: string; paragraphs?: string[]; extraHead?: string; extraBody?: string } = {}): string {
  const title = opts.title ?? 'How Llamas Learned to Code';
  const paragraphs = opts.paragraphs ?? [
    'Llamas in the high Andes have long been known for their patience. In 2024 a small cooperative in Cusco began teaching them to sort packages by weight, a task that turned out to need more programming than anyone expected.',
    'The cooperative hired two engineers from Lima. They wrote a scheduler that assigns each llama a route by the weight of its load, and the llamas learned the routes within a week.',
    'Funding came from a regional grant of 40,000 soles. The cooperative is now looking for investors to expand the programme to Arequipa and Puno next year.',
    'Visitors can watch the llamas at work every Saturday morning at the market square.',
  ];
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${title} | Andes Daily</title>
  ${opts.description ? `<meta name="description" content="${opts.description}">` : ''}
  ${opts.extraHead ?? ''}
  <script>window.tracking = true;</script>
  <style>body { font-family: serif; }</style>
</head>
<body>
  <nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sports">Sports</a></nav>
  <main>
    <article>
      <h1>${title}</h1>
      ${paragraphs.map((p) => `<p>${p}</p>`).join('\n      ')}
    </article>
  </main>
  ${opts.extraBody ?? ''}
  <footer><p>© Andes Daily. All rights reserved.</p></footer>
</body>
</html>`;
}
