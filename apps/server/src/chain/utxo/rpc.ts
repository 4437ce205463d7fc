/**
 * A small JSON-RPC client for a Bitcoin Core style node (Bitcoin Core, Litecoin Core).
 *
 * Amounts: the node writes them as JSON numbers with 8 decimals ("value": 0.30000000). A JS
 * number cannot hold every such value exactly (20999999.99999999 rounds), so the raw response
 * text is rewritten before it is parsed: every number literal outside a string becomes a
 * string, and callers turn it into what it is (`rpcInt` for counts and heights, `toBaseUnits`
 * for amounts). No amount ever passes through a float (docs/decisions/048-utxo-family.md).
 */

/** Attempts after the first for a request that never reached the node (refused, reset). */
export const UTXO_RPC_RETRIES = 3;
/** Pause before a retry, in ms, times the attempt number. */
export const UTXO_RPC_RETRY_DELAY_MS = 200;
/** One request (or one batch) may take this long, in ms, before it is abandoned. */
export const UTXO_RPC_TIMEOUT_MS = 30_000;
/** Decimals of an amount as the node writes it (1 coin = 10^8 base units). */
export const UTXO_AMOUNT_DECIMALS = 8;

/** A JSON value with every number kept as its literal text. */
export type RpcValue = string | boolean | null | RpcValue[] | { [key: string]: RpcValue };

/** The node answered with an error (its code, e.g. -8 invalid parameter, -5 not found). */
export class UtxoRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message} (rpc code ${code})`);
    this.name = 'UtxoRpcError';
  }
}

/** The node could not be reached, or answered something that is not JSON-RPC. */
export class UtxoRpcTransportError extends Error {
  constructor(
    readonly method: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(`${method}: ${message}`);
    this.name = 'UtxoRpcTransportError';
  }
}

// A JSON string (with escapes) or a number literal; strings are kept, numbers quoted.
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** Parses JSON text with every number literal kept as a string (exactly as written). */
export function parseJsonKeepingNumbers(text: string): RpcValue {
  return JSON.parse(text.replace(JSON_TOKEN, (token) => (token.startsWith('"') ? token : `"${token}"`))) as RpcValue;
}

const AMOUNT_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

/** An amount literal as the node writes it ("0.30000000") in base units, exactly. */
export function toBaseUnits(literal: RpcValue | undefined, decimals = UTXO_AMOUNT_DECIMALS): bigint {
  const match = typeof literal === 'string' ? AMOUNT_RE.exec(literal) : null;
  if (!match || (match[3]?.length ?? 0) > decimals) throw new Error(`not an amount with at most ${decimals} decimals: ${String(literal)}`);
  const units = BigInt(match[2]!) * 10n ** BigInt(decimals) + BigInt((match[3] ?? '').padEnd(decimals, '0') || '0');
  return match[1] === '-' ? -units : units;
}

/** Base units as the decimal string the node accepts for an amount ("0.1" for 10^7). */
export function fromBaseUnits(units: bigint, decimals = UTXO_AMOUNT_DECIMALS): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const scale = 10n ** BigInt(decimals);
  const frac = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / scale}${frac ? `.${frac}` : ''}`;
}

/** An integer literal (height, count, vout index) as a number; throws on anything else. */
export function rpcInt(literal: RpcValue | undefined): number {
  if (typeof literal !== 'string' || !/^-?\d+$/.test(literal)) throw new Error(`not an integer: ${String(literal)}`);
  return Number(literal);
}

export interface UtxoRpcOptions {
  /** e.g. http://127.0.0.1:18443 (a wallet's calls go to `${url}/wallet/<name>`) */
  url: string;
  user: string;
  password: string;
  timeoutMs?: number;
}

interface Reply {
  id?: RpcValue;
  result?: RpcValue;
  error?: { code?: RpcValue; message?: RpcValue } | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class UtxoRpc {
  private readonly auth: string;

  constructor(private readonly opts: UtxoRpcOptions) {
    this.auth = `Basic ${Buffer.from(`${opts.user}:${opts.password}`).toString('base64')}`;
  }

  /** The same node, with calls addressed to one of its wallets. */
  wallet(name: string): UtxoRpc {
    return new UtxoRpc({ ...this.opts, url: `${this.opts.url.replace(/\/wallet\/.*$/, '')}/wallet/${encodeURIComponent(name)}` });
  }

  async call(method: string, params: unknown[] = []): Promise<RpcValue> {
    const reply = (await this.post(method, { jsonrpc: '1.0', id: 0, method, params })) as Reply;
    return resultOf(method, reply);
  }

  /** Several calls in one request; results in the order of `calls` (the first error throws). */
  async batch(calls: ReadonlyArray<{ method: string; params: unknown[] }>): Promise<RpcValue[]> {
    return (await this.batchSettled(calls)).map((r) => {
      if (r instanceof Error) throw r;
      return r;
    });
  }

  /** Several calls in one request; each answer is its result or its error. */
  async batchSettled(calls: ReadonlyArray<{ method: string; params: unknown[] }>): Promise<Array<RpcValue | Error>> {
    if (calls.length === 0) return [];
    const body = calls.map((c, i) => ({ jsonrpc: '1.0', id: i, method: c.method, params: c.params }));
    const label = `batch of ${calls.length} (${calls[0]!.method})`;
    const replies = await this.post(label, body);
    if (!Array.isArray(replies) || replies.length !== calls.length) {
      throw new UtxoRpcTransportError(label, 'batch answer has the wrong shape', false);
    }
    const byId = new Map((replies as Reply[]).map((r) => [r.id, r]));
    return calls.map((c, i) => {
      try {
        return resultOf(c.method, byId.get(String(i)) ?? {});
      } catch (err) {
        return err as Error;
      }
    });
  }

  private async post(label: string, body: unknown): Promise<RpcValue> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.postOnce(label, body);
      } catch (err) {
        if (!(err instanceof UtxoRpcTransportError) || !err.retryable || attempt >= UTXO_RPC_RETRIES) throw err;
        await sleep(UTXO_RPC_RETRY_DELAY_MS * (attempt + 1));
      }
    }
  }

  private async postOnce(label: string, body: unknown): Promise<RpcValue> {
    let res: Response;
    try {
      res = await fetch(this.opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: this.auth },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? UTXO_RPC_TIMEOUT_MS),
      });
    } catch (err) {
      // fetch rejects with a TypeError when the connection failed (nothing was executed); a
      // timeout is not retried: the node may have run the call.
      const timedOut = (err as Error).name === 'TimeoutError';
      const cause = ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message) || 'failed';
      throw new UtxoRpcTransportError(label, timedOut ? 'timed out' : `connection ${cause}`, !timedOut);
    }
    const text = await res.text();
    if (res.status === 401 || res.status === 403)
      throw new UtxoRpcTransportError(label, `HTTP ${res.status}: wrong rpc user or password`, false);
    try {
      return parseJsonKeepingNumbers(text);
    } catch {
      throw new UtxoRpcTransportError(label, `HTTP ${res.status}: ${text.slice(0, 200) || 'empty answer'}`, false);
    }
  }
}

function resultOf(method: string, reply: Reply): RpcValue {
  if (reply.error) {
    const code = typeof reply.error.code === 'string' ? Number(reply.error.code) : 0;
    throw new UtxoRpcError(method, code, String(reply.error.message ?? 'error'));
  }
  if (reply.result === undefined) throw new UtxoRpcTransportError(method, 'answer without result', false);
  return reply.result;
}
