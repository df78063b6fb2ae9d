import type { RequestHandler } from 'express';

export type Logger = (entry: Record<string, unknown>) => void;

/** Structured logs: one JSON line per entry on stdout (or nowhere, in tests). */
export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Logger {
  return (entry) => write(JSON.stringify({ time: new Date().toISOString(), level: 'info', ...entry }));
}

export const silentLogger: Logger = () => undefined;

/** One line per request: method, path, status, duration, tenant. Query strings are left out (they may carry tokens). */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      log({
        msg: 'request',
        method: req.method,
        // Download keys in /files/<key> are secrets for their lifetime: not in the log.
        path: req.originalUrl.split('?')[0].replace(/\/files\/[^/]+/, '/files/…'),
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        tenant: res.locals.tenant?.id,
      });
    });
    next();
  };
}
