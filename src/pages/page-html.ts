import type { Response } from 'express';

/** Text for HTML element content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Where the pages' own stylesheet and scripts are served (src/pages/assets). */
export const ASSETS_PATH = '/_pages';

/**
 * The service's own pages load nothing from elsewhere, and the browser is told so: the policy
 * allows this origin only (scripts, styles, images, fetches), no frames, forms posting here only.
 */
export const PAGE_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

/** A whole page: `body` is already escaped HTML. */
export function pageHtml(title: string, body: string, opts: { scripts?: string[] } = {}): string {
  const scripts = (opts.scripts ?? []).map((s) => `<script src="${ASSETS_PATH}/${escapeHtml(s)}" defer></script>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Intro Match</title>
<link rel="stylesheet" href="${ASSETS_PATH}/pages.css">
${scripts}
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function sendPage(res: Response, status: number, html: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.send(html);
}
