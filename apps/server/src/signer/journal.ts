import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Purpose } from './policy.ts';

/** The daily limits are over the last 24 hours (a rolling window: no fresh allowance at midnight). */
export const DAY_MS = 24 * 60 * 60 * 1000;
const GENESIS = '0'.repeat(64);

/** One signature the signer gave, as written to its journal (amounts in base units, decimal strings). */
export interface JournalEntry {
  seq: number;
  /** milliseconds since the epoch, the signer's clock */
  at: number;
  chainId: number;
  from: string;
  nonce: number;
  purpose: Purpose;
  asset: string;
  to: string;
  amount: string;
  fee: string;
  txHash: string;
  /** hash of the previous line (64 zeros for the first) */
  prev: string;
  /** sha256 over prev and this entry's other fields: a line changed or removed breaks the chain */
  hash: string;
}

type Unhashed = Omit<JournalEntry, 'seq' | 'prev' | 'hash'>;

function entryHash(e: Omit<JournalEntry, 'hash'>): string {
  const { seq, at, chainId, from, nonce, purpose, asset, to, amount, fee, txHash, prev } = e;
  return createHash('sha256')
    .update(JSON.stringify([prev, seq, at, chainId, from, nonce, purpose, asset, to, amount, fee, txHash]))
    .digest('hex');
}

/**
 * The append-only log of what the signer signed: JSONL, one line per signature, each line
 * hashed with the previous one's hash, fsync'd before the signature leaves the signer. The
 * daily totals are computed from it, so a restart cannot reset a daily limit; a broken chain
 * (edited, truncated in the middle) stops the signer at start.
 */
export class SignerJournal {
  private readonly fd: number;
  private last: string = GENESIS;
  private seq = 0;
  /** entries of the last DAY_MS (what the daily limits count), oldest first */
  private recent: JournalEntry[] = [];

  constructor(
    readonly path: string,
    now: number,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (existsSync(path)) this.load(now);
    this.fd = openSync(path, 'a', 0o600);
  }

  private load(now: number): void {
    const lines = readFileSync(this.path, 'utf8').split('\n');
    for (const [i, line] of lines.entries()) {
      if (line === '') continue;
      const e = JSON.parse(line) as JournalEntry;
      const { hash, ...rest } = e;
      if (e.prev !== this.last || e.seq !== this.seq + 1 || entryHash(rest) !== hash) {
        throw new Error(`signer journal ${this.path} is broken at line ${i + 1}: restore it from a backup before signing again`);
      }
      this.last = hash;
      this.seq = e.seq;
      if (e.at > now - DAY_MS) this.recent.push(e);
    }
  }

  /** Appends and fsyncs one entry; returns it. */
  append(entry: Unhashed): JournalEntry {
    const base = { ...entry, seq: this.seq + 1, prev: this.last };
    const full: JournalEntry = { ...base, hash: entryHash(base) };
    writeSync(this.fd, `${JSON.stringify(full)}\n`);
    fsyncSync(this.fd);
    this.last = full.hash;
    this.seq = full.seq;
    this.recent.push(full);
    return full;
  }

  /**
   * What entries of `purpose` in `asset` on `chainId` may move within the last 24 hours: per
   * sender and nonce the largest amount signed (replacements at a higher fee reuse a nonce and
   * only one transaction per nonce can be mined), summed over nonces.
   */
  windowTotal(chainId: number, purpose: Purpose, asset: string, now: number): bigint {
    this.recent = this.recent.filter((e) => e.at > now - DAY_MS);
    const perNonce = new Map<string, bigint>();
    for (const e of this.recent) {
      if (e.chainId !== chainId || e.purpose !== purpose || e.asset.toLowerCase() !== asset.toLowerCase()) continue;
      const key = `${e.from.toLowerCase()}:${e.nonce}`;
      const amount = BigInt(e.amount);
      if ((perNonce.get(key) ?? -1n) < amount) perNonce.set(key, amount);
    }
    let total = 0n;
    for (const v of perNonce.values()) total += v;
    return total;
  }

  /** The largest amount already counted for this sender and nonce (a replacement adds only what exceeds it). */
  countedForNonce(chainId: number, purpose: Purpose, asset: string, from: string, nonce: number): bigint {
    let max = 0n;
    for (const e of this.recent) {
      if (
        e.chainId === chainId &&
        e.purpose === purpose &&
        e.asset.toLowerCase() === asset.toLowerCase() &&
        e.from.toLowerCase() === from.toLowerCase() &&
        e.nonce === nonce
      ) {
        const amount = BigInt(e.amount);
        if (amount > max) max = amount;
      }
    }
    return max;
  }

  close(): void {
    closeSync(this.fd);
  }
}
