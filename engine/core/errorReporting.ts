/**
 * Sends client error reports (engine/domain/clientErrors.ts) to the portal's
 * `POST <base>api/client-errors`: a sample of the errors (the spec's rate of 0.25), each distinct
 * error once per page load and at most MAX_REPORTS_PER_PAGE, without the session's token (the
 * endpoint takes reports from signed-out pages too, and a report must never log anyone out).
 * Sending is best effort: a report that cannot be sent is dropped, never shown.
 */
import { clientErrorReport, ERROR_REPORT_SAMPLE_RATE, type ClientErrorKind } from '../domain/clientErrors';
import { XSRF_COOKIE, XSRF_HEADER } from '../domain/httpHeaders';
import { readCookie } from './apiClient';

const MAX_REPORTS_PER_PAGE = 10;

export type ReportError = (error: unknown, kind: ClientErrorKind) => void;

export function createErrorReporter(options: {
  basePath: string;
  /** The screen's path under the portal base (the report carries it with its numbers replaced). */
  pathname: () => string;
  random?: () => number;
  send?: (url: string, init: RequestInit) => Promise<unknown>;
}): ReportError {
  const url = `${options.basePath.replace(/\/$/, '')}/api/client-errors`;
  const random = options.random ?? Math.random;
  const send = options.send ?? ((target, init) => fetch(target, init));
  const seen = new Set<string>();
  return (error, kind) => {
    const report = clientErrorReport(error, kind, options.pathname());
    const key = `${report.kind} ${report.name} ${report.message}`;
    if (seen.has(key) || seen.size >= MAX_REPORTS_PER_PAGE) return;
    seen.add(key);
    if (random() >= ERROR_REPORT_SAMPLE_RATE) return;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers[XSRF_HEADER] = xsrf;
    // keepalive: a report sent while the page unloads (a reload from the error view) still arrives.
    send(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(report),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined);
  };
}
