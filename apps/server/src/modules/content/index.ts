/** What other modules may use from content: the one Markdown renderer (safe links and images only). */
export { renderMarkdown } from './markdown.ts';
