import pino from 'pino';
/**
 * What the server may write to its log about a request and an error. Never the parameters of a
 * statement: driver errors carry them (PGlite sets `params` and `query`; drizzle's
 * DrizzleQueryError puts "params: ..." in its message and the values in `params`; PostgreSQL's
 * `detail` and `where` quote values), and they hold password hashes, session-token hashes of
 * every user in a batch, e-mails and memos.
 */

/** Credentials in request and response headers, wherever a log line carries them. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-token"]',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  'headers["x-token"]',
  'headers.cookie',
  'headers["idempotency-key"]',
  'res.headers["set-cookie"]',
];

export interface LoggedError {
  type: string;
  /** SQLSTATE of a database error, or Node's / Fastify's error code. */
  code?: string;
  message: string;
  /** Code locations only ("at ..." lines); the message lines of the stack are dropped. */
  stack?: string;
  cause?: LoggedError;
}

/**
 * An opaque run of 20 or more characters that mixes letters and digits: a token, a hash (hex,
 * base64, argon2's $-separated form), a key. SQL identifiers and words do not look like that.
 */
const OPAQUE = /[A-Za-z0-9+/=$._:-]{20,}/g;
const looksSecret = (run: string) => /\d/.test(run) && /[A-Za-z]/.test(run);

/** A message with parameters cut off and quoted values and opaque runs masked. */
export function sanitizeMessage(message: string): string {
  // drizzle: "Failed query: <sql>\nparams: <values>".
  const cut = message.split(/\r?\n\s*params:/)[0] ?? '';
  return (
    cut
      // PostgreSQL quotes input values in data errors: invalid input syntax for type integer: "abc".
      .replace(/: "(?:[^"\\]|\\.)*"/g, ': "[redacted]"')
      .replace(OPAQUE, (run) => (looksSecret(run) ? '[redacted]' : run))
      .slice(0, 1000)
  );
}

/**
 * The error as the log may show it: its name, its code (SQLSTATE for database errors), its
 * message without parameters, the code locations of its stack and, the same way, its cause.
 * Everything else on the error object (params, query, detail, where, internalQuery, ...) stays out.
 */
export function sanitizeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[non-error value]' };
  const { cause } = error as { cause?: unknown };
  const code = errorCode(error);
  const frames = error.stack
    ?.split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  // The class says more than `name` (DrizzleQueryError keeps "Error"; driver errors say "error").
  const type = error.constructor.name && error.constructor.name !== 'Error' ? error.constructor.name : error.name;
  return {
    type,
    ...(code !== undefined && { code }),
    message: sanitizeMessage(error.message),
    ...(frames && { stack: frames }),
    ...(cause !== undefined && depth < 3 && { cause: sanitizeError(cause, depth + 1) }),
  };
}

/**
 * The code of an error for the log: the error's own, or for a drizzle error the driver's
 * (DrizzleQueryError keeps the SQLSTATE on its cause).
 */
export function errorCode(error: unknown): string | undefined {
  const err = error as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof err?.code === 'string') return err.code;
  if (typeof err?.cause?.code === 'string') return err.cause.code;
  return undefined;
}

/** A logger that writes nothing (tests, the simulator): pino itself at level silent. */
export const silentLog = pino({ level: 'silent' });
