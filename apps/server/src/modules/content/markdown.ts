import crypto from 'node:crypto';
import { UPLOAD_NAME_RE, UPLOAD_PATH_PREFIX } from '@coffer/contract';
import MarkdownIt from 'markdown-it';

/**
 * Operators write bodies in Markdown; readers get HTML rendered here, so the web app can set
 * it as markup. Raw HTML in the source is escaped (html: false); a link is kept only when it
 * goes to http(s), mailto or an in-app path (everything else stays as its source text); an
 * image only when it is an https URL or an uploaded file. docs/decisions/014.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const WEB_LINK = /^https?:\/\/[^/\\]/i;
const MAIL_LINK = /^mailto:[^\s]/i;
/** One leading '/': '//host' and '/\host' would be read by a browser as another host. */
const IN_APP_LINK = /^\/(?![/\\])/;
const HTTPS_IMAGE = /^https:\/\/[^/\\]/i;

export function isAllowedLink(href: string): boolean {
  return WEB_LINK.test(href) || MAIL_LINK.test(href) || IN_APP_LINK.test(href);
}

export function isAllowedImage(src: string): boolean {
  if (HTTPS_IMAGE.test(src)) return true;
  return src.startsWith(UPLOAD_PATH_PREFIX) && UPLOAD_NAME_RE.test(src.slice(UPLOAD_PATH_PREFIX.length));
}

// markdown-it asks this for every link and image destination (after normalising it); a
// refused one is rendered as the text it was written as.
md.validateLink = (url: string) => isAllowedLink(url) || isAllowedImage(url);

const defaultImage = md.renderer.rules.image!;
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const src = String(token.attrGet('src') ?? '');
  // An in-app path passed validateLink but is no image source: show the alt text instead.
  if (!isAllowedImage(src)) return md.utils.escapeHtml(self.renderInlineAsText(token.children ?? [], options, env));
  token.attrSet('loading', 'lazy');
  return defaultImage(tokens, idx, options, env, self);
};

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!;
  if (WEB_LINK.test(String(token.attrGet('href') ?? ''))) {
    // Another site: a new tab, no window.opener, no referrer, no endorsement for search engines.
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer nofollow');
  }
  return self.renderToken(tokens, idx, options);
};

/**
 * Renderings kept, least recently used dropped first. A long body takes milliseconds to render
 * (decision 014) and the same few bodies are read over and over; at most ~20 000 characters
 * of HTML-ish text each, this is a few MB at worst.
 */
export const MAX_CACHED_RENDERINGS = 256;
const rendered = new Map<string, string>();

/** Safe HTML for a Markdown body. */
export function renderMarkdown(source: string): string {
  if (source === '') return '';
  const key = crypto.createHash('sha256').update(source).digest('base64');
  const hit = rendered.get(key);
  if (hit !== undefined) {
    rendered.delete(key);
    rendered.set(key, hit);
    return hit;
  }
  const html = md.render(source);
  rendered.set(key, html);
  if (rendered.size > MAX_CACHED_RENDERINGS) rendered.delete(rendered.keys().next().value as string);
  return html;
}
