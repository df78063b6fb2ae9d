import type { RequestHandler } from 'express';

export type Logger = (entry: Record<string, unknown>) => void;

/**
 * Structured logs: one JSON line per entry on stdout (or nowhere, in tests). Writes to a pipe or a
 * file are synchronous in Node on Linux, so lines are gathered and written once per turn of the
 * event loop: one write for many requests under load instead of one blocking write each.
 */
export function jsonLogger(write?: (line: string) => void): Logger {
  if (write) return (entry) => write(JSON.stringify({ time: new Date().toISOString(), level: 'info', ...entry }));
  let pending: string[] = [];
  const flush = () => {
    if (!pending.length) return;
    const chunk = pending.join('');
    pending = [];
    process.stdout.write(chunk);
  };
  process.once('exit', flush);
  return (entry) => {
    if (!pending.length) setImmediate(flush);
    pending.push(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', ...entry })}\n`);
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
    let logged = false;
    const write = (aborted: boolean) => {
      if (logged) return;
      logged = true;
      log({
        msg: 'request',
        method: req.method,
        // Download keys in /files/<key> are secrets for their lifetime: not in the log.
        path: req.originalUrl.split('?')[0].replace(/\/files\/[^/]+/, '/files/…'),
        status: aborted ? 499 : res.statusCode,
        ...(aborted ? { aborted: true } : {}),
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        tenant: res.locals.tenant?.id,
      });
    };
    res.on('finish', () => write(false));
    // 'close' without 'finish': the connection ended before the answer was complete.
    res.on('close', () => write(!res.writableFinished));
    next();
  };
}
