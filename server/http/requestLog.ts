import type { RequestHandler } from 'express';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { recordedPath } from './recordedPath';

export type Logger = (entry: Record<string, unknown>) => void;

/**
 * The trace a log line belongs to (docs/going-live.md "Operations"): the active span's trace and span id, so
 * an operator goes from a line to its trace and back. Without tracing there is no active span and
 * nothing is added.
 */
function traceFields(): { traceId?: string; spanId?: string } {
  const context = trace.getActiveSpan()?.spanContext();
  return context && isSpanContextValid(context) ? { traceId: context.traceId, spanId: context.spanId } : {};
}

/**
 * The bidirectional format characters (Unicode's Bidi_Control: the marks, embeddings, overrides
 * and isolates): a value that carries one (a browser's error report says what it likes) would show
 * the rest of its line reversed in a terminal or viewer, other fields' text included.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const escapeBidiControls = (text: string) =>
  text.replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// As an escape, the same character to a JSON reader.
const line = (entry: Record<string, unknown>) =>
  escapeBidiControls(
    JSON.stringify({ time: new Date().toISOString(), level: 'info', ...traceFields(), ...entry }),
  );

/**
 * Structured logs: one JSON line per entry on stdout (batchedJsonLogger), or to `write` line by line
 * (tests, stderr).
 */
export function jsonLogger(write?: (line: string) => void): Logger {
  if (write) return (entry) => write(line(entry));
  return batchedJsonLogger(process.stdout);
}

/**
 * A line at once on stderr, for what an operator must see even if the process ends next: errors
 * outside a request (a payment that settles as an error, a failed background write).
 */
export const stderrLog: Logger = jsonLogger((text) => process.stderr.write(`${text}\n`));

/**
 * JSON lines gathered and written once per turn of the event loop: writes to a pipe or a file are
 * synchronous in Node on Linux, so under load that is one write for many requests instead of one
 * blocking write each.
 */
export function batchedJsonLogger(output: { write: (chunk: string) => unknown }): Logger {
  let pending: string[] = [];
  const flush = () => {
    if (!pending.length) return;
    const chunk = pending.join('');
    pending = [];
    output.write(chunk);
  };
  process.once('exit', flush);
  return (entry) => {
    if (!pending.length) setImmediate(flush);
    pending.push(`${line(entry)}\n`);
  };
}

export const silentLogger: Logger = () => undefined;

/**
 * One line per request: method, path, status, duration, tenant. Query strings are left out (they may
 * carry tokens). A request whose client went away before the answer, or that the server's request
 * time-out ended, is logged too (`aborted: true`, status 499 as nginx writes it), with its duration:
 * otherwise the slowest requests under load would be exactly the ones missing from the log.
 */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Taken now, in the request's context: 'finish' and 'close' fire outside it.
    const traced = traceFields();
    const write = (aborted: boolean) => {
      log({
        msg: 'request',
        method: req.method,
        // No query, no download key, no e-mail address (recordedPath).
        path: recordedPath(req.originalUrl),
        status: aborted ? 499 : res.statusCode,
        ...(aborted ? { aborted: true } : {}),
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        tenant: res.locals.tenant?.id,
        ...traced,
      });
    };
    // A response closes after it finishes, and when the connection ends before the answer was
    // complete (then without finishing): one listener sees both.
    res.on('close', () => write(!res.writableFinished));
    next();
  };
}

/** Paths Vite's dev server answers with modules and assets: hundreds per page load, not news. */
export function isDevAssetPath(path: string): boolean {
  return (
    /^\/(@|node_modules\/|__vite)/.test(path) ||
    /\.(tsx?|jsx?|mjs|css|json|svg|png|jpe?g|webp|gif|ico|woff2?|map)$/.test(path)
  );
}

const COLORS = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2 } as const;

/**
 * A log entry's text as the readable log writes it: the further lines of a multi-line value (a
 * stack, a browser's error report) indented under the entry, so no text an entry carries reads as
 * an entry of its own, and other control characters (a terminal's colour codes among them) and
 * the bidirectional format characters escaped rather than run.
 */
function readableText(text: string): string {
  return escapeBidiControls(
    text
      .replace(/\r?\n/g, '\n    ')
      .replace(/[^\P{Cc}\n\t]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/**
 * The log of `portal dev` (readable and quiet in dev, JSON in production): one line a
 * request, `GET /t/technikwelt/api/subscriptions 200 12 ms`, coloured only on a terminal; modules
 * and assets Vite serves successfully are left out; other entries read `message key=value …`.
 */
export function devLogger(options: { write?: (line: string) => void; color?: boolean } = {}): Logger {
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const color = options.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR);
  const paint = (code: number, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  return (entry) => {
    if (entry.msg === 'request') {
      const path = String(entry.path);
      const status = Number(entry.status);
      if (status < 400 && isDevAssetPath(path)) return;
      const statusColor =
        status >= 500
          ? COLORS.red
          : status >= 400
            ? COLORS.yellow
            : status >= 300
              ? COLORS.cyan
              : COLORS.green;
      const aborted = entry.aborted ? ' (client went away)' : '';
      write(
        `${entry.method} ${path} ${paint(statusColor, String(status))} ${paint(COLORS.dim, `${Math.round(Number(entry.ms))} ms`)}${aborted}`,
      );
      return;
    }
    const { msg, level, ...rest } = entry;
    const fields = Object.entries(rest)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
    const text = readableText([String(msg ?? ''), ...fields].join(' '));
    write(
      level === 'error'
        ? paint(COLORS.red, `error: ${text}`)
        : level === 'warn'
          ? paint(COLORS.yellow, `warning: ${text}`)
          : text,
    );
  };
}
