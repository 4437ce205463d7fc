/**
 * The contract's HELP_QUERY_MAX. Importing it would bring the contract's zod schemas into
 * this page's chunk; search-query.test.ts keeps the two equal.
 */
export const HELP_QUERY_MAX = 50;

/** Debounce of the search box: one request after the user pauses typing. */
export const SEARCH_DEBOUNCE_MS = 300;

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is its purpose
const UNSENDABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/**
 * What the search box sends as `q`: trimmed, without characters the server refuses in text,
 * cut to the server's limit; undefined when nothing is left (the full list).
 */
export function searchQuery(input: string): string | undefined {
  // A cut inside an emoji would leave half a surrogate pair, which the server refuses too.
  const q = input.replace(UNSENDABLE, '').trim().slice(0, HELP_QUERY_MAX).replace(/[\ud800-\udbff]$/, '').trim();
  return q === '' ? undefined : q;
}
