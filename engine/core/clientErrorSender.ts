/**
 * Posts one client error report to `<base>api/client-errors` (docs/going-live.md "Client error
 * reports"): with the XSRF header and without the session's token (the endpoint takes reports
 * from signed-out pages too, and a report must never log anyone out); `keepalive`, so a report
 * sent while the page unloads (a reload from the error's notice) still arrives. Best effort: a
 * report that cannot be sent is dropped. In every page's entry file, so a tab whose build is gone
 * can still say so (engine/app/main.tsx).
 */
import type { ClientErrorReport } from '../domain/clientErrors';
import { XSRF_COOKIE, XSRF_HEADER } from '../domain/httpHeaders';
import { readCookie } from './apiClient';

export function sendClientErrorReport(basePath: string, report: ClientErrorReport): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  try {
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers[XSRF_HEADER] = xsrf;
  } catch {
    // A cookie that does not decode: the server answers 403, and the report is lost.
  }
  return fetch(`${basePath.replace(/\/$/, '')}/api/client-errors`, {
    method: 'POST',
    headers,
    body: JSON.stringify(report),
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => undefined);
}
