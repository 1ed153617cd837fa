import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DomainError } from '../shared/errors';

/** The topics GET /api/docs serves, in the order core-api.md lists them. */
export const DOC_TOPICS = ['identity-context', 'signals', 'communities-networks', 'opportunities', 'negotiations', 'workflows'] as const;

/** Same depth from src/ and from dist/, so both the sources and the build find the project's docs. */
export const DEFAULT_TOPICS_DIR = resolve(__dirname, '..', '..', '..', 'docs', 'topics');

export interface DocsPage {
  topic: string | null;
  topics: string[];
  content: string;
}

/**
 * The guides agents and people read through GET /api/docs: markdown files in docs/topics,
 * read once at start-up (a missing file stops the service, like an invalid REST operation).
 * `index.md` is the overview served without a topic.
 */
export class DocsTopicsService {
  private readonly overview: string;
  private readonly pages: Map<string, string>;

  constructor(dir = DEFAULT_TOPICS_DIR) {
    this.overview = readFileSync(join(dir, 'index.md'), 'utf8');
    this.pages = new Map(DOC_TOPICS.map((t) => [t, readFileSync(join(dir, `${t}.md`), 'utf8')]));
  }

  read(topic?: string | null): DocsPage {
    const topics = [...DOC_TOPICS];
    const name = topic?.trim().toLowerCase();
    if (!name) return { topic: null, topics, content: this.overview };
    const content = this.pages.get(name);
    if (content === undefined) throw new DomainError('NOT_FOUND', 'unknown_topic', { topics });
    return { topic: name, topics, content };
  }
}
