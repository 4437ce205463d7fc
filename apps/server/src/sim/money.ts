/**
 * Exact amounts for the model: bigint units at the ledger's scale (NUMERIC(38,18)), never JS
 * numbers. Decimal strings in, decimal strings out.
 */
export const SCALE = 18;
const ONE = 10n ** BigInt(SCALE);

/** Units of a decimal string ("-12.5" -> -12500000000000000000n); throws on anything else. */
export function units(v: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v.trim());
  if (!m) throw new Error(`not a decimal: ${JSON.stringify(v)}`);
  const frac = m[3] ?? '';
  if (frac.length > SCALE && /[1-9]/.test(frac.slice(SCALE))) throw new Error(`more than ${SCALE} decimals: ${v}`);
  const u = BigInt(m[2]! + frac.padEnd(SCALE, '0').slice(0, SCALE));
  return m[1] ? -u : u;
}

/** The shortest decimal string of units (12500000000000000000n -> "12.5"). */
export function decimal(u: bigint): string {
  const neg = u < 0n;
  const abs = neg ? -u : u;
  const int = abs / ONE;
  const frac = (abs % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** Minor units of a currency with `decimals` places -> decimal string ("1234567", 6 -> "1.234567"). */
export function fromMinor(minor: bigint, decimals: number): string {
  return decimal(minor * 10n ** BigInt(SCALE - decimals));
}
