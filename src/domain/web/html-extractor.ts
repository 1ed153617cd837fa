import type * as MozillaReadability from '@mozilla/readability';
import type * as Jsdom from 'jsdom';
import { blockText, collapseText } from './text-blocks';

/** What the service keeps of an HTML page. */
export interface ExtractedPage {
  title: string | null;
  /** The readable text, paragraphs separated by blank lines; '' when nothing is readable. */
  text: string;
  /** The page's own summary: meta description, og:description or Readability's excerpt. */
  description: string | null;
  /** Absolute http(s) links found on the page (before Readability trims it). */
  links: string[];
  /** Place names the page marks up (microdata, h-card, JSON-LD). */
  locations: string[];
}

const MAX_LINKS = 500;

function metaContent(doc: Document, ...keys: string[]): string | null {
  const wanted = new Set(keys.map((k) => k.toLowerCase()));
  for (const meta of Array.from(doc.querySelectorAll('meta'))) {
    const key = (meta.getAttribute('name') ?? meta.getAttribute('property') ?? '').toLowerCase();
    const content = collapseText(meta.getAttribute('content') ?? '');
    if (wanted.has(key) && content) return content;
  }
  return null;
}

function pageLinks(doc: Document): string[] {
  const out = new Set<string>();
  for (const a of Array.from(doc.querySelectorAll('a[href], link[rel~="me"][href]'))) {
    const href = (a as HTMLAnchorElement).href;
    if (/^https?:\/\//i.test(href)) out.add(href);
    if (out.size >= MAX_LINKS) break;
  }
  return [...out];
}

function jsonLdLocations(doc: Document): string[] {
  const found: string[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (!v || typeof v !== 'object' || depth > 6) return;
    if (Array.isArray(v)) return v.forEach((x) => visit(x, depth + 1));
    const o = v as Record<string, unknown>;
    for (const key of ['addressLocality', 'homeLocation', 'workLocation', 'location']) {
      const val = o[key];
      if (typeof val === 'string' && val.trim()) found.push(collapseText(val));
      else if (val && typeof val === 'object' && typeof (val as Record<string, unknown>).name === 'string') {
        found.push(collapseText((val as Record<string, string>).name));
      }
    }
    for (const val of Object.values(o)) visit(val, depth + 1);
  };
  for (const s of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      visit(JSON.parse(s.textContent ?? ''), 0);
    } catch {
      // A malformed block says nothing; the page's text still counts.
    }
  }
  return found;
}

function markedLocations(doc: Document): string[] {
  const out = Array.from(doc.querySelectorAll('[itemprop="homeLocation"], [itemprop="addressLocality"], .p-locality, .p-adr, .h-card .p-label'))
    .map((el) => collapseText(el.textContent ?? ''))
    .filter((t) => t.length > 0 && t.length <= 100);
  return [...out, ...jsonLdLocations(doc)];
}

/**
 * Reads an HTML document with jsdom (no scripts run, no resources load) and Mozilla's
 * Readability, the extractor behind Firefox's reader view. Metadata and links are read first,
 * because Readability prunes the document it is given.
 */
export function extractHtml(body: Buffer, charset: string | null, url: string): ExtractedPage {
  // Loaded on the first page read: jsdom takes about a second to load, and most processes never read one.
  const { JSDOM, VirtualConsole } = require('jsdom') as typeof Jsdom;
  const { Readability } = require('@mozilla/readability') as typeof MozillaReadability;
  const dom = new JSDOM(body, {
    url,
    contentType: charset && isKnownCharset(charset) ? `text/html; charset=${charset}` : 'text/html',
    virtualConsole: new VirtualConsole(),
  });
  try {
    const doc = dom.window.document;
    const description = metaContent(doc, 'description', 'og:description', 'twitter:description');
    const metaTitle = metaContent(doc, 'og:title', 'twitter:title');
    const links = pageLinks(doc);
    const locations = [...new Set(markedLocations(doc))];
    const article = new Readability(doc).parse();
    let text = '';
    if (article?.content) {
      const holder = dom.window.document.createElement('div');
      holder.innerHTML = article.content;
      text = blockText(holder);
    }
    const title = collapseText(article?.title ?? '') || metaTitle || collapseText(doc.title ?? '') || null;
    return {
      title,
      text,
      description: description ?? (article?.excerpt ? collapseText(article.excerpt) : null),
      links,
      locations,
    };
  } finally {
    dom.window.close();
  }
}

function isKnownCharset(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** Plain text as sent, decoded by its charset (UTF-8 when none or unknown). */
export function decodeText(body: Buffer, charset: string | null): string {
  const label = charset && isKnownCharset(charset) ? charset : 'utf-8';
  return new TextDecoder(label).decode(body);
}
