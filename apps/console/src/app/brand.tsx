/**
 * The product's colours and mark, as the phone app has them (apps/web/src/styles/global.css and
 * public/favicon.svg): the brand teal for the mark and decoration, and the darker teal the app
 * uses for text and filled controls, which keeps 4.5:1 against white (the brand teal is 2.8:1).
 */
export const BRAND_TEAL = '#00aba9';
export const BRAND_PRIMARY = '#007a78';

/** The app's mark (a wallet on a teal tile) and its name. */
export function BrandMark({ name }: { name: string }) {
  return (
    <span className="console-brand" data-testid="console-brand">
      <svg viewBox="0 0 32 32" width={28} height={28} aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill={BRAND_TEAL} />
        <path d="M8 11h16v12H8z" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinejoin="round" />
        <path d="M11 11V8h10v3" fill="none" stroke="#fff" strokeWidth="2.4" />
        <circle cx="16" cy="17" r="2.2" fill="#fff" />
      </svg>
      <span>{name}</span>
    </span>
  );
}
