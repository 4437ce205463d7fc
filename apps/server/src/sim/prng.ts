/**
 * A seeded PRNG (mulberry32, 32-bit state): the same seed gives the same run of choices on
 * every machine. Only choices come from it (which action, which user, how much); amounts
 * are built from its integers, never from its floats.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** An integer in [0, n), n >= 1 (modulo bias is irrelevant at these sizes). */
  int(n: number): number {
    if (!Number.isInteger(n) || n < 1) throw new Error(`Prng.int(${n})`);
    return this.next() % n;
  }

  /** A bigint in [lo, hi] (for amounts in minor units, which may pass 2^32). */
  big(lo: bigint, hi: bigint): bigint {
    const span = hi - lo + 1n;
    const r = (BigInt(this.next()) << 32n) | BigInt(this.next());
    return lo + (r % span);
  }

  /** True with probability percent/100. */
  chance(percent: number): boolean {
    return this.int(100) < percent;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('Prng.pick of nothing');
    return xs[this.int(xs.length)]!;
  }

  /** A key from weights: { a: 3, b: 1 } picks a three times as often as b. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.int(total);
    for (const [k, w] of entries) {
      if (r < w) return k;
      r -= w;
    }
    return entries[entries.length - 1]![0];
  }

  /** `n` distinct elements in random order (Fisher-Yates on a copy). */
  sample<T>(xs: readonly T[], n: number): T[] {
    const copy = [...xs];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  }
}
