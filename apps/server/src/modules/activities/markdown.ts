import MarkdownIt from 'markdown-it';

/**
 * Activity rules are Markdown written by operators; the phone shows them as HTML. Raw HTML in
 * the Markdown is escaped (html: false) and markdown-it refuses javascript:/vbscript:/data: links,
 * so the rendered rules carry no script.
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true });

export function renderRules(markdown: string): string {
  return md.render(markdown);
}
