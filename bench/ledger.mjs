#!/usr/bin/env node
// Ledger benchmark (docs/product.md §8.4, §12): API transfers per second against pgbench's tpcb-like rate
// on the same PostgreSQL, measured in the same run.
//
//   npm run bench:ledger            (env: BENCH_PG_URL, BENCH_SECONDS, BENCH_USERS, BENCH_CLIENTS)
//
// The HTTP load comes from wrk (install: apt-get install -y wrk) driven by a Lua script the bench
// writes (random pairs of the prepared users, each request with its sender's token and a fresh
// Idempotency-Key, answers counted by envelope code); without wrk, or with BENCH_LOAD=autocannon,
// from autocannon in this process (a warning is printed: its client costs more CPU). Each run
// prints the CPU each side used (server process tree, its PostgreSQL backends, load generator).
//
// 1. pgbench -i -s 10, then pgbench -c 16 -j 2 -T 15 (tpcb-like) in a fresh database: reference TPS.
// 2. The real server as `npm start` runs it (apps/server/dist/main.js, built by
//    apps/server/scripts/build.mjs at the start of the bench) on a fresh database and a free port, users
//    registered through the API (codes read from the console-mode outbox), funded through
//    POST /api/admin/ledger/adjust, then 16 keep-alive clients POST /api/transfer/transferByUID:
//    uniform random pairs, then a hot run (every transfer credits one account), then swaps
//    through the house (POST /api/swap/apply USDT -> USDC at the live rate: every swap posts to
//    both house accounts and the fees account), printed as a ratio to uniform transfers.
// 3. The uniform run again with WORKERS=2 (BENCH_WORKERS) on a fresh database: several API
//    processes on one port (docs/scaling.md), reported as a ratio to one process.
// 4. The same uniform run twice in the embedded mode (PGlite, no DATABASE_URL).
// Each server's resident memory (the process tree, /proc VmRSS) is printed at idle, during each
// load (sampled every 250 ms: the peak) and at its end, and at idle again after the last load; the
// memory floor is the highest sample of any load, and the repeated PGlite load must not raise the
// peak by more than GOALS.rssGrowthMb. The floors (GOALS) are printed met / NOT met; the bench
// exits 1 when one is missed.
// Servers run with CHAIN=off: the bench measures the ledger.
// After each run the operator audit must pass, and the group-commit batch sizes of the run are
// printed (the server's metrics port, scraped before and after). Every database it creates is
// dropped at the end.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildServer, serverNodeFlags } from '../apps/server/scripts/build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const USERS = Number(process.env.BENCH_USERS ?? 200);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
/** For quicker runs while tuning: BENCH_MODES=postgres (or pglite), BENCH_PGBENCH=0. */
const MODES = (process.env.BENCH_MODES ?? 'postgres,pglite').split(',');
const RUN_PGBENCH = process.env.BENCH_PGBENCH !== '0';
/** Runs on PostgreSQL, in order (BENCH_PG_RUNS=uniform,swaps for a quick swap ratio). */
const PG_RUNS = (process.env.BENCH_PG_RUNS ?? 'uniform,hot,swaps').split(',');
/** Floors (bench/README.md): below any of them the bench exits 1. */
const GOALS = { uniformVsPgbench: 1.0, hotVsUniform: 0.75, swapsVsUniform: 0.75, p99Ms: 50, pgliteTps: 1500, rssMb: 300, rssGrowthMb: 15 };
/** API processes for the extra PostgreSQL uniform run(s): BENCH_WORKERS=2 (or 2,4; empty: none). */
const EXTRA_WORKERS = (process.env.BENCH_WORKERS ?? '2').split(',').filter(Boolean).map(Number);

const suffix = crypto.randomBytes(4).toString('hex');
const createdDbs = [];
const children = new Set();
const tmpDirs = [];
let seq = 0;

function dbUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function sh(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${res.stderr || res.stdout}`);
  return res.stdout;
}

function psqlAdmin(sql) {
  return sh('psql', [ADMIN_URL, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql]);
}

function createDb(name) {
  psqlAdmin(`create database ${name}`);
  createdDbs.push(name);
  return dbUrl(name);
}

function dropDbs() {
  for (const name of createdDbs.splice(0)) {
    try {
      psqlAdmin(`drop database if exists ${name} with (force)`);
    } catch (e) {
      console.error(`could not drop ${name}: ${e.message}`);
    }
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** The server bundle, built once per bench run. */
let serverEntry;

// ---------------------------------------------------------------- pgbench reference
function pgbenchReference() {
  const url = createDb(`coffer_bench_pgb_${suffix}`);
  console.log('pgbench: initialising scale 10 ...');
  sh('pgbench', ['-i', '-s', '10', '-q', url]);
  console.log(`pgbench: tpcb-like -c 16 -j 2 -T ${SECONDS} ...`);
  const out = sh('pgbench', ['-c', '16', '-j', '2', '-T', String(SECONDS), url]);
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  const lat = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
  if (!tps) throw new Error(`could not read pgbench output:\n${out}`);
  psqlAdmin(`drop database if exists coffer_bench_pgb_${suffix} with (force)`);
  createdDbs.splice(createdDbs.indexOf(`coffer_bench_pgb_${suffix}`), 1);
  return { tps, latencyAvgMs: lat };
}

// ---------------------------------------------------------------- server
async function startServer(env) {
  const port = await freePort();
  const metricsPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-'));
  tmpDirs.push(dataDir);
  // What `npm start` runs; BENCH_SERVER_NODE_ARGS adds node flags (e.g. --cpu-prof).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  serverEntry ??= buildServer();
  const child = spawn(process.execPath, [...serverNodeFlags, ...nodeArgs, await serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMIT: 'off',
      // The bench measures the ledger: no chain node (the embedded one serves a single process).
      CHAIN: 'off',
      LOG_LEVEL: 'warn',
      OPERATOR_EMAILS: 'ops@bench.coffer',
      // The operator's one session spans the whole run (operators' sessions are short by default).
      OPERATOR_SESSION_HOURS: '24',
      OPERATOR_IDLE_MINUTES: '1440',
      SMTP_URL: '',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (d) => {
    if (process.env.BENCH_SHOW_SERVER) process.stderr.write(d);
    stderr = (stderr + d).slice(-4000);
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${stderr}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return {
    base,
    pid: child.pid,
    metricsBase: `http://127.0.0.1:${metricsPort}`,
    dataDir,
    /** Resident memory of the server: the process and, with WORKERS > 1, its workers. */
    rssMb: () => rssTreeMb(child.pid),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
      children.delete(child);
    },
  };
}

/** VmRSS of a process and its children, in MB (Linux /proc). */
function rssTreeMb(pid) {
  const rssKb = (p) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      return m ? Number(m[1]) : 0;
    } catch {
      return 0;
    }
  };
  let children = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    // no children file: count the process alone
  }
  // Children count too: the cluster's workers, PGlite's initdb while a new data directory is made.
  return Math.round((rssKb(pid) + children.reduce((sum, c) => sum + rssKb(c), 0)) / 1024);
}

/**
 * Samples the server's resident memory every 250 ms until `stop()`, which answers the peak and the
 * value at that moment: one reading at the end alone may fall just after a garbage collection.
 */
function rssSampler(server) {
  let peak = server.rssMb();
  const timer = setInterval(() => {
    peak = Math.max(peak, server.rssMb());
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      const end = server.rssMb();
      return { peak: Math.max(peak, end), end };
    },
  };
}

async function api(base, method, url, { token, body, key } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers['x-token'] = token;
  if (key) headers['idempotency-key'] = key;
  const res = await fetch(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (json.code !== 0) throw new Error(`${method} ${url}: ${json.code} ${json.message}`);
  return json.data;
}

/** Registers through the API, reading the code from the console-mode outbox in DATA_DIR/mail. */
async function register(server, email) {
  await api(server.base, 'GET', `/api/sendMail?email=${encodeURIComponent(email)}&type=register`);
  const outbox = path.join(server.dataDir, 'mail');
  const tail = `-${email.replace(/[^a-z0-9@.]/gi, '_')}.json`;
  let code;
  for (let i = 0; i < 100 && !code; i++) {
    const file = fs.existsSync(outbox) ? fs.readdirSync(outbox).find((f) => f.endsWith(tail)) : undefined;
    if (file) code = /\b(\d{6})\b/.exec(JSON.parse(fs.readFileSync(path.join(outbox, file), 'utf8')).text)?.[1];
    if (!code) await sleep(20);
  }
  if (!code) throw new Error(`no code mailed to ${email}`);
  const data = await api(server.base, 'POST', '/api/register', { body: { email, password: 'bench-password-1', code } });
  return data.tokenHead + data.token;
}

async function inBatches(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** RFC 6238 code (SHA-1, 6 digits, 30 s) of a base32 secret at a 30 s step. */
function totpCode(base32, step) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of base32.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = crypto.createHmac('sha1', key).update(counter).digest();
  const at = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * The bench's operator: registered (OPERATOR_EMAILS makes it the admin), with an authenticator
 * enrolled and signed in with a code, as operators must (docs/decisions/045).
 */
async function operatorSignIn(server) {
  const email = 'ops@bench.coffer';
  const password = 'bench-password-1';
  const first = await register(server, email);
  await api(server.base, 'POST', '/api/security/reauth', { token: first, body: { password } });
  const setup = await api(server.base, 'POST', '/api/2fa/setup', { token: first, body: {} });
  const step = Math.floor(Date.now() / 30_000);
  await api(server.base, 'POST', '/api/2fa/enable', { token: first, body: { code: totpCode(setup.secret, step - 1) } });
  const login = await api(server.base, 'POST', '/api/login', { body: { email, password } });
  const data = await api(server.base, 'POST', '/api/login/2fa', {
    body: { challenge: login.secondFactor.challenge, code: totpCode(setup.secret, step) },
  });
  return data.tokenHead + data.token;
}

/** An operator and USERS funded users; returns their uids and tokens. */
async function prepare(server, usdtId) {
  const opToken = await operatorSignIn(server);
  const emails = Array.from({ length: USERS }, (_, i) => `user${i}@bench.coffer`);
  const tokens = await inBatches(emails, 8, (email) => register(server, email));
  const users = await inBatches(tokens, 16, async (token, i) => {
    const me = await api(server.base, 'GET', '/api/getCurrentUser', { token });
    await api(server.base, 'POST', '/api/admin/ledger/adjust', {
      token: opToken,
      body: { uid: me.uid, currency: usdtId, amount: '1000000', reason: `bench funding ${i}` },
    });
    return { uid: me.uid, token };
  });
  return { opToken, users };
}

// ---------------------------------------------------------------- group-commit batch sizes
/** coffer_group_commit_batch_size of one writer from the metrics port: cumulative buckets, sum, count. */
async function batchSizes(server, writer) {
  const text = await (await fetch(`${server.metricsBase}/metrics`)).text();
  const seen = { buckets: new Map(), sum: 0, count: 0 };
  for (const line of text.split('\n')) {
    const m = /^coffer_group_commit_batch_size_(bucket|sum|count)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m?.[2].includes(`writer="${writer}"`)) continue;
    if (m[1] === 'bucket') seen.buckets.set(/le="([^"]+)"/.exec(m[2])[1], Number(m[3]));
    else seen[m[1]] = Number(m[3]);
  }
  return seen;
}

/** The batches of one run (after minus before) as a line: count, mean size, share per size range. */
function batchLine(writer, before, after) {
  const count = after.count - before.count;
  if (count <= 0) return `  batch sizes (${writer}): no batches`;
  const parts = [];
  let below = 0;
  let from = 1;
  for (const [le, cumulative] of after.buckets) {
    const upTo = cumulative - (before.buckets.get(le) ?? 0);
    const n = upTo - below;
    below = upTo;
    const range = le === '+Inf' ? `>${from - 1}` : from === Number(le) ? le : `${from}-${le}`;
    if (n > 0) parts.push(`${range}: ${((100 * n) / count).toFixed(0)}%`);
    if (le !== '+Inf') from = Number(le) + 1;
  }
  const mean = (after.sum - before.sum) / count;
  return `  batch sizes (${writer}): ${count} batches, mean ${mean.toFixed(1)} items | ${parts.join(' | ')}`;
}

// ---------------------------------------------------------------- CPU per side
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU seconds (user + system) a process has used so far, 0 once it is gone (Linux /proc). */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** A process and its children (the cluster's workers). */
function processTree(pid) {
  try {
    const kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return [pid, ...kids.flatMap((k) => processTree(Number(k)))];
  } catch {
    return [pid];
  }
}

/** The PostgreSQL backends serving a database (none for PGlite). */
function backendsOf(databaseUrl) {
  if (!databaseUrl) return [];
  const name = new URL(databaseUrl).pathname.slice(1);
  return psqlAdmin(`select pid from pg_stat_activity where datname = '${name}'`).split('\n').filter(Boolean).map(Number);
}

/** CPU of each side over a run: snapshot now, `end()` answers cores used since (1 = one core). */
function cpuMeter(server, databaseUrl) {
  const snapshot = (pids) => new Map(pids.map((p) => [p, cpuSeconds(p)]));
  const at = performance.now();
  const serverStart = snapshot(processTree(server.pid));
  const pgStart = snapshot(backendsOf(databaseUrl));
  const self = process.cpuUsage();
  return {
    /** `loadPid`: the load generator's process (wrk); without it, this process (autocannon). */
    end(loadPid) {
      const seconds = (performance.now() - at) / 1000;
      // Processes that started during the run count from zero (their whole life is in it).
      const used = (start, pids) => pids.reduce((t, p) => t + cpuSeconds(p) - (start.get(p) ?? 0), 0);
      const mine = process.cpuUsage(self);
      const load = loadPid ? cpuSeconds(loadPid) : (mine.user + mine.system) / 1e6;
      return {
        server: used(serverStart, processTree(server.pid)) / seconds,
        postgres: used(pgStart, backendsOf(databaseUrl)) / seconds,
        load: load / seconds,
      };
    },
  };
}

/** "cpu (cores): server 0.30, postgres backends 0.50, ...; per item 0.17 ms server, 0.28 ms postgres; load average 5.1" */
function cpuLine(cpu, perSecond) {
  const f = (x) => x.toFixed(2);
  const load = os.loadavg()[0].toFixed(1);
  // CPU per item (ms) is steadier than the rate on a shared machine: the rate also measures the share of the CPU each side got.
  const per = (cores) => (perSecond > 0 ? ((1000 * cores) / perSecond).toFixed(2) : '-');
  return (
    `  cpu (cores): server ${f(cpu.server)}, postgres backends ${f(cpu.postgres)}, load generator ${f(cpu.load)}; ` +
    `per item ${per(cpu.server)} ms server, ${per(cpu.postgres)} ms postgres; load average ${load}`
  );
}

// ---------------------------------------------------------------- load
/**
 * The load generator: wrk (C, one Lua state per thread) when installed, since autocannon's
 * client costs about a core of the two that the server and PostgreSQL share, where pgbench's
 * client costs little; BENCH_LOAD=autocannon forces the old one. Install wrk with
 * `apt-get install -y wrk` (Debian/Ubuntu) or `brew install wrk`.
 */
const WRK = process.env.BENCH_LOAD === 'autocannon' ? null : whichWrk();
const WRK_THREADS = 2;

function whichWrk() {
  const res = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  return res.error ? null : 'wrk';
}

/** What the requests of a run are: the path, who sends (the hot run spares its target), to whom. */
function loadShape(users, run) {
  const hot = run === 'hot';
  return {
    path: run === 'swaps' ? '/api/swap/apply' : '/api/transfer/transferByUID',
    senders: hot ? users.slice(1) : users,
    target: hot ? users[0] : null,
  };
}

/**
 * One run; its answer carries the CPU each side used (cores), measured over the load's seconds
 * less half a second, so the load generator is still alive to be read.
 */
async function runLoad(server, users, ids, run, databaseUrl) {
  const meter = cpuMeter(server, databaseUrl);
  let loadPid;
  let cpu;
  const timer = setTimeout(
    () => {
      cpu = meter.end(loadPid);
    },
    Math.max(500, SECONDS * 1000 - 500),
  );
  try {
    const out = await (WRK
      ? runWrk(server, users, ids, run, (pid) => {
          loadPid = pid;
        })
      : runAutocannon(server, users, ids, run));
    return { ...out, cpu };
  } finally {
    clearTimeout(timer);
  }
}

/** A Lua string literal (JSON's escapes are a subset of Lua's for these ASCII values). */
const luaString = (s) => JSON.stringify(String(s));

/**
 * wrk script: each request a random pair from the prepared users (the sender's token header,
 * a fresh Idempotency-Key, as the apps send), each answer's envelope code counted per thread
 * in response(), summed over threads in done() and printed as one JSON line.
 */
/** Loads started so far: part of every Idempotency-Key, so a repeated run never reuses the keys of an earlier one (3010). */
let loadsStarted = 0;

function wrkScript(users, ids, run) {
  const { path: urlPath, senders, target } = loadShape(users, run);
  const load = ++loadsStarted;
  const list = (xs) => `{${xs.map((u) => `{uid=${luaString(u.uid)}, token=${luaString(u.token)}}`).join(',\n')}}`;
  return `-- generated by bench/ledger.mjs
local users = ${list(users)}
local senders = ${list(senders)}
local target = ${target ? `{uid=${luaString(target.uid)}}` : 'nil'}
local swaps = ${run === 'swaps'}
local usdt, usdc = ${luaString(ids.usdt)}, ${luaString(ids.usdc)}
local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  seq = 0
  codes = {}
  math.randomseed(os.time() * 1000 + tid * 7919)
end

function request()
  seq = seq + 1
  local from = senders[math.random(#senders)]
  local body
  if swaps then
    body = string.format('{"fromCurrencyId":%s,"toCurrencyId":%s,"amount":"%d"}', usdt, usdc, math.random(100))
  else
    local to = target
    if to == nil then
      repeat to = users[math.random(#users)] until to.uid ~= from.uid
    end
    body = string.format('{"uid":%s,"currencyId":%s,"amount":"0.%02d"}', to.uid, usdt, math.random(100))
  end
  local headers = {
    ["content-type"] = "application/json",
    ["x-token"] = from.token,
    ["idempotency-key"] = "bench-${suffix}-${run}-${load}-" .. tid .. "-" .. seq,
  }
  return wrk.format("POST", "${urlPath}", headers, body)
end

function response(status, headers, body)
  local key
  if status == 200 then key = string.match(body, '"code":(%-?%d+)') or "unreadable" else key = "http " .. status end
  codes[key] = (codes[key] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for k, n in pairs(thread:get("codes")) do total[k] = (total[k] or 0) + n end
  end
  local parts = {}
  for k, n in pairs(total) do table.insert(parts, string.format('"%s":%d', k, n)) end
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"codes":{%s},"p50":%.3f,"p99":%.3f,"errors":%d}\\n',
    table.concat(parts, ","), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.connect + e.read + e.write + e.timeout))
end
`;
}

function runWrk(server, users, ids, run, started) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-wrk-'));
  tmpDirs.push(dir);
  const script = path.join(dir, `${run}.lua`);
  // Bodies and ids are JSON literals in the script: ids must be numbers or plain strings.
  fs.writeFileSync(script, wrkScript(users, { usdt: JSON.stringify(ids.usdt), usdc: JSON.stringify(ids.usdc) }, run));
  const args = ['-t', String(WRK_THREADS), '-c', String(CLIENTS), '-d', `${SECONDS}s`, '--timeout', '10s', '-s', script, server.base];
  return new Promise((resolve, reject) => {
    const child = spawn(WRK, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    started(child.pid);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      children.delete(child);
      const line = /WRK_RESULT (.*)/.exec(out)?.[1];
      if (code !== 0 || !line) return reject(new Error(`wrk exited ${code}:\n${err || out}`));
      const parsed = JSON.parse(line);
      const codes = new Map(Object.entries(parsed.codes).map(([k, n]) => [/^-?\d+$/.test(k) ? Number(k) : k, n]));
      const non2xx = [...codes.entries()].filter(([k]) => typeof k === 'string').reduce((sum, [, n]) => sum + n, 0);
      const round = (ms) => Math.round(ms * 100) / 100;
      resolve({
        result: { latency: { p50: round(parsed.p50), p99: round(parsed.p99) }, errors: parsed.errors, timeouts: 0, non2xx },
        codes,
      });
    });
  });
}

function runAutocannon(server, users, ids, run) {
  const { path: urlPath, senders, target } = loadShape(users, run);
  const hot = run === 'hot';
  const codes = new Map();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.base,
        connections: CLIENTS,
        duration: SECONDS,
        pipelining: 1,
        requests: [
          {
            method: 'POST',
            path: urlPath,
            setupRequest(req) {
              const from = senders[Math.floor(Math.random() * senders.length)];
              const headers = {
                'content-type': 'application/json',
                'x-token': from.token,
                'idempotency-key': `bench-${suffix}-${++seq}`,
              };
              if (run === 'swaps') {
                const amount = String(1 + Math.floor(Math.random() * 100));
                return { ...req, headers, body: JSON.stringify({ fromCurrencyId: ids.usdt, toCurrencyId: ids.usdc, amount }) };
              }
              let to = target;
              if (!hot) {
                do to = users[Math.floor(Math.random() * users.length)];
                while (to === from);
              }
              const cents = 1 + Math.floor(Math.random() * 100);
              return {
                ...req,
                headers,
                body: JSON.stringify({ uid: to.uid, currencyId: ids.usdt, amount: `0.${String(cents).padStart(2, '0')}` }),
              };
            },
            onResponse(status, body) {
              const code = status === 200 ? JSON.parse(body).code : `http ${status}`;
              codes.set(code, (codes.get(code) ?? 0) + 1);
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve({ result, codes })),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

function summarize(name, { result, codes }, unit) {
  const ok = codes.get(0) ?? 0;
  const failed = [...codes.entries()].filter(([c]) => c !== 0);
  const tps = ok / SECONDS;
  const row = {
    name,
    tps,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    failed: Object.fromEntries(failed),
  };
  console.log(
    `${name}: ${tps.toFixed(0)} ${unit}/s, p50 ${row.p50} ms, p99 ${row.p99} ms` +
      (failed.length || row.errors ? `, non-zero answers ${JSON.stringify(row.failed)}, errors ${row.errors}` : ''),
  );
  return row;
}

async function benchServer(label, env, runs) {
  const server = await startServer(env);
  try {
    const currencies = await api(server.base, 'GET', '/api/currency/list');
    const ids = { usdt: currencies.find((c) => c.code === 'USDT').id, usdc: currencies.find((c) => c.code === 'USDC').id };
    const started = Date.now();
    const { opToken, users } = await prepare(server, ids.usdt);
    console.log(`${label}: ${USERS} users registered and funded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const rows = { rss: { idle: server.rssMb(), afterRuns: [], peaks: [], idleAfter: 0 } };
    console.log(`${label}: resident memory at idle ${rows.rss.idle} MB`);
    for (const run of runs) {
      if (run === 'swaps') {
        // The house pays out USDC it does not hold: give it room to owe (its floor becomes -limit).
        const body = { currencyId: ids.usdc, limit: '1000000000' };
        await api(server.base, 'POST', '/api/swap/admin/houseLimit', { token: opToken, body });
      }
      const unit = run === 'swaps' ? 'swaps' : 'transfers';
      const before = await batchSizes(server, unit);
      const sampler = rssSampler(server);
      const load = await runLoad(server, users, ids, run, env.DATABASE_URL);
      const rss = sampler.stop();
      rows[run] = summarize(`${label} ${run}`, load, unit);
      if (load.cpu) console.log(cpuLine(load.cpu, rows[run].tps));
      rows.rss.afterRuns.push(rss.end);
      rows.rss.peaks.push(rss.peak);
      console.log(`${label} ${run}: resident memory during the load peak ${rss.peak} MB, at its end ${rss.end} MB`);
      console.log(batchLine(unit, before, await batchSizes(server, unit)));
      const audit = await api(server.base, 'GET', '/api/admin/ledger/audit', { token: opToken });
      if (!audit.ok) throw new Error(`audit failed after ${label} ${run}: ${JSON.stringify(audit.checks.filter((c) => !c.ok))}`);
    }
    console.log(`${label}: ledger audit ok`);
    await sleep(2000);
    rows.rss.idleAfter = server.rssMb();
    console.log(`${label}: resident memory at idle after the loads ${rows.rss.idleAfter} MB`);
    return rows;
  } finally {
    await server.stop();
  }
}

async function main() {
  const load = WRK ? `wrk (${WRK_THREADS} threads)` : 'autocannon';
  console.log(`ledger bench: ${CLIENTS} clients, ${SECONDS} s per run, ${USERS} users, ${os.cpus().length} CPUs, load from ${load}\n`);
  if (!WRK && process.env.BENCH_LOAD !== 'autocannon') {
    console.log('WARNING: wrk not found, falling back to autocannon, whose client runs in this process and costs two to');
    console.log('four times the CPU of wrk (0.1-0.2 cores against 0.05 measured). Install wrk: apt-get install -y wrk\n');
  }
  const pgbench = RUN_PGBENCH ? pgbenchReference() : undefined;
  if (pgbench) console.log(`pgbench tpcb-like: ${pgbench.tps.toFixed(0)} TPS (latency avg ${pgbench.latencyAvgMs} ms)\n`);
  const pg = MODES.includes('postgres')
    ? await benchServer('postgres', { DATABASE_URL: createDb(`coffer_bench_app_${suffix}`) }, PG_RUNS)
    : undefined;
  const multi = [];
  if (MODES.includes('postgres')) {
    for (const workers of EXTRA_WORKERS) {
      const env = { DATABASE_URL: createDb(`coffer_bench_w${workers}_${suffix}`), WORKERS: String(workers) };
      multi.push({ workers, rows: await benchServer(`postgres ${workers} processes`, env, ['uniform']) });
    }
  }
  // PGlite twice: the second load on the same server shows whether memory grows between runs.
  const lite = MODES.includes('pglite') ? await benchServer('pglite', {}, ['uniform', 'uniform']) : undefined;

  let missed = 0;
  const verdict = (ok) => {
    if (!ok) missed += 1;
    return ok ? 'met' : 'NOT met';
  };
  const line = (label, r) => `  ${label.padEnd(26)} ${r.tps.toFixed(0)}/s  p50 ${r.p50} ms  p99 ${r.p99} ms`;
  console.log('\nresults');
  if (pgbench) console.log(`  ${'pgbench tpcb-like'.padEnd(26)} ${pgbench.tps.toFixed(0)} TPS`);
  if (pg?.uniform) console.log(line('postgres uniform', pg.uniform));
  if (pg?.hot) console.log(line('postgres hot account', pg.hot));
  if (pg?.swaps) console.log(line('postgres swaps (house)', pg.swaps));
  for (const m of multi) console.log(line(`postgres uniform, ${m.workers} proc`, m.rows.uniform));
  if (lite) console.log(line('pglite uniform', lite.uniform));
  const memory = [['postgres', pg], ...multi.map((m) => [`postgres ${m.workers} proc`, m.rows]), ['pglite', lite]].filter(([, r]) => r);
  for (const [label, r] of memory) {
    console.log(
      `  ${`${label} memory`.padEnd(26)} idle ${r.rss.idle} MB; each load peak ${r.rss.peaks.join(', ')} MB, ` +
        `end ${r.rss.afterRuns.join(', ')} MB; idle after ${r.rss.idleAfter} MB`,
    );
  }
  console.log('floors');
  if (pg?.uniform && pgbench) {
    const r = pg.uniform.tps / pgbench.tps;
    console.log(`  uniform / pgbench = ${r.toFixed(2)}x (goal >= ${GOALS.uniformVsPgbench}x): ${verdict(r >= GOALS.uniformVsPgbench)}`);
  }
  if (pg?.uniform && pg.hot) {
    const r = pg.hot.tps / pg.uniform.tps;
    console.log(`  hot / uniform     = ${r.toFixed(2)}x (goal >= ${GOALS.hotVsUniform}x): ${verdict(r >= GOALS.hotVsUniform)}`);
    const p99 = Math.max(pg.uniform.p99, pg.hot.p99);
    console.log(`  p99 (postgres)    = ${p99} ms (goal <= ${GOALS.p99Ms} ms): ${verdict(p99 <= GOALS.p99Ms)}`);
  }
  if (pg?.uniform && pg.swaps) {
    const s = pg.swaps.tps / pg.uniform.tps;
    console.log(`  swaps / uniform   = ${s.toFixed(2)}x (goal >= ${GOALS.swapsVsUniform}x): ${verdict(s >= GOALS.swapsVsUniform)}`);
    console.log(`  p99 (swaps)       = ${pg.swaps.p99} ms (goal <= ${GOALS.p99Ms} ms): ${verdict(pg.swaps.p99 <= GOALS.p99Ms)}`);
  }
  for (const m of multi) {
    if (pg?.uniform) console.log(`  ${m.workers} processes / 1   = ${(m.rows.uniform.tps / pg.uniform.tps).toFixed(2)}x (reported)`);
  }
  // The memory floor is per API process: the one-process servers (the cluster adds a primary and more workers).
  for (const [label, r] of [
    ['postgres', pg],
    ['pglite', lite],
  ].filter(([, x]) => x)) {
    const peak = Math.max(...r.rss.peaks);
    console.log(
      `  ${`${label} memory`.padEnd(17)} = ${peak} MB peak under load (goal <= ${GOALS.rssMb} MB): ${verdict(peak <= GOALS.rssMb)}`,
    );
  }
  // Growth: PGlite runs the same load twice on one server; its second peak against its first.
  if (lite && lite.rss.peaks.length > 1) {
    const growth = lite.rss.peaks.at(-1) - lite.rss.peaks[0];
    const ok = growth <= GOALS.rssGrowthMb;
    console.log(`  pglite growth     = ${growth} MB, repeated load's peak (goal <= ${GOALS.rssGrowthMb} MB): ${verdict(ok)}`);
  }
  if (lite) {
    const ok = lite.uniform.tps >= GOALS.pgliteTps;
    console.log(`  pglite            = ${lite.uniform.tps.toFixed(0)}/s (goal >= ${GOALS.pgliteTps}/s): ${verdict(ok)}`);
  }
  if (missed > 0) {
    console.log(`\n${missed} floor(s) not met`);
    process.exitCode = 1;
  }
}

const cleanup = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  dropDbs();
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
};
process.once('SIGINT', () => {
  cleanup();
  process.exit(130);
});

try {
  await main();
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  cleanup();
}
