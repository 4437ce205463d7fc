import { FORBIDDEN_SINGLE_LINE, HELP_QUERY_MAX } from '@coffer/contract/rules';

export { HELP_QUERY_MAX };

/** Debounce of the search box: one request after the user pauses typing. */
export const SEARCH_DEBOUNCE_MS = 300;

/** Every character the server refuses in a text field (the contract's list), to remove them all. */
const UNSENDABLE = new RegExp(FORBIDDEN_SINGLE_LINE.source, 'g');

/**
 * What the search box sends as `q`: trimmed, without characters the server refuses in text,
 * cut to the server's limit; undefined when nothing is left (the full list).
 */
export function searchQuery(input: string): string | undefined {
  // A cut inside an emoji would leave half a surrogate pair, which the server refuses too.
  const q = input
    .replace(UNSENDABLE, '')
    .trim()
    .slice(0, HELP_QUERY_MAX)
    .replace(/[\ud800-\udbff]$/, '')
    .trim();
  return q === '' ? undefined : q;
}
