import net from 'node:net';
import { z } from 'zod';

/** proxy-addr's named ranges, accepted by Fastify's trustProxy list as they are. */
const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
const MAX_PROXY_HOPS = 10;

function isProxyAddress(entry: string): boolean {
  if (NAMED_PROXY_RANGES.includes(entry)) return true;
  const [ip = '', bits, ...rest] = entry.split('/');
  const version = net.isIP(ip);
  if (!version || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * `true` is refused: Fastify would then trust every hop, and the client's own left-most
 * X-Forwarded-For entry would be its IP, so anyone could pick a fresh IP per request and
 * per-IP limits would not hold. A hop count or the proxies' addresses are safe.
 */
export function parseTrustProxy(value: string, ctx: z.RefinementCtx): false | number | string[] {
  if (value === '' || value === 'false') return false;
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (value === 'true') {
    return fail(
      'true is no longer accepted: it trusts any X-Forwarded-For a client sends, so per-IP limits can be bypassed. ' +
        'Set the number of proxies in front of the server (a hop count, e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= MAX_PROXY_HOPS) return hops;
    return fail(`a hop count must be 1-${MAX_PROXY_HOPS} (use false for no proxy)`);
  }
  const list = value.split(',').map((entry) => entry.trim());
  const bad = list.filter((entry) => !isProxyAddress(entry));
  if (bad.length > 0) {
    return fail(
      `must be false, a hop count or a comma-separated list of proxy IP addresses or CIDRs (not ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
    );
  }
  return list;
}

/**
 * TRUST_PROXY as Fastify's trustProxy. A hop count becomes a function: this Fastify treats a
 * bare number as "trust nothing", because a hop count cannot tell the proxy from a client that
 * reaches the server directly. So a hop count is only for a server that can be reached through
 * its proxies alone (README); a list of the proxies' addresses is safe everywhere.
 */
export function fastifyTrustProxy(value: false | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return value;
}
