import { decodeText, extractHtml } from './html-extractor';
import type { SafeFetcher } from './safe-fetcher';
import { tidyPlainText } from './text-blocks';

/** A fetched page reduced to what the service uses. */
export interface ReadablePage {
  /** Final URL after redirects, normalized. */
  url: string;
  title: string | null;
  /** Readable text; '' when the page has none. */
  text: string;
  description: string | null;
  links: string[];
  locations: string[];
  mediaType: string;
}

/** Fetches a URL through the safe fetcher and extracts its readable text. */
export async function readPage(fetcher: SafeFetcher, url: string): Promise<ReadablePage> {
  const doc = await fetcher.fetch(url);
  if (doc.mediaType === 'text/plain') {
    const text = tidyPlainText(decodeText(doc.body, doc.charset));
    return { url: doc.url, title: null, text, description: null, links: [], locations: [], mediaType: doc.mediaType };
  }
  const page = extractHtml(doc.body, doc.charset, doc.url);
  return { url: doc.url, ...page, mediaType: doc.mediaType };
}
