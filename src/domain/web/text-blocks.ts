/** Elements that start a new paragraph of text when serializing a DOM tree. */
const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DETAILS', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE',
  'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE',
  'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL',
]);
const SKIPPED_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT']);

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

export function collapseText(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * The text of a DOM subtree with its paragraphs kept: each block element (paragraph, heading,
 * list item, table cell, …) becomes its own paragraph, separated by blank lines; list items
 * read `- item`. Readability's own textContent runs paragraphs together.
 */
export function blockText(root: Node): string {
  const blocks: string[] = [];
  let current = '';
  let prefix = '';
  const flush = () => {
    const t = collapseText(current);
    if (t) blocks.push(prefix + t);
    current = '';
    prefix = '';
  };
  const walk = (node: Node): void => {
    if (node.nodeType === TEXT_NODE) {
      current += node.nodeValue ?? '';
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const tag = (node as Element).tagName.toUpperCase();
    if (SKIPPED_TAGS.has(tag)) return;
    const block = BLOCK_TAGS.has(tag);
    if (block) flush();
    if (tag === 'LI') prefix = '- ';
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child);
    if (block) flush();
  };
  walk(root);
  flush();
  return blocks.join('\n\n');
}

/** Plain text tidied the same way: one blank line between paragraphs, no trailing spaces. */
export function tidyPlainText(s: string): string {
  return s
    .replace(/^\uFEFF/, '')
    // NUL is never text, and PostgreSQL cannot store it in a text column.
    .replace(/\u0000/g, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The paragraphs of a text produced by blockText or tidyPlainText. */
export function paragraphsOf(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}
