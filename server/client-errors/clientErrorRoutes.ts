import { Router } from 'express';
import type { ApiDeps } from '../featureManifest';
import { validateBody } from '../http/validateBody';
import { clientKey } from '../auth/rateLimit';
import { clientErrors, tenantLabel } from '../metrics/registry';
import { requestTenant } from '../tenancy/tenantContext';
import {
  CLIENT_ERROR_LIMITS,
  reportPath,
  scrubbed,
  type ClientErrorReport,
} from '../../engine/domain/clientErrors';

/** Reports one client (an IPv4 address, an IPv6 /64) may send per minute; the rest are dropped. */
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 20;
/** Clients counted at once: a flood from many addresses cannot grow the counts without end. */
const MAX_COUNTED_CLIENTS = 10_000;

/**
 * `POST /api/client-errors` (engine/core/errorReporting.ts sends them): a browser's error report,
 * anonymous like the pages it comes from, logged as one `client error` line and counted in
 * portal_client_errors_total (docs/going-live.md "Operations"). Whatever the browser sent is
 * untrusted: the schema bounds every field, the server scrubs e-mail addresses, long numbers and
 * the path's numbers again (engine/domain/clientErrors.ts), and a client past its budget is
 * answered 429 and not logged, so reports cannot flood the log. Nothing is stored.
 */
export function clientErrorRoutes(deps: Pick<ApiDeps, 'log' | 'now'>): Router {
  const router = Router();
  let current = { started: 0, counts: new Map<string, number>() };

  function withinBudget(ip: string): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const now = deps.now().getTime();
    if (now - current.started >= 60_000) current = { started: now, counts: new Map() };
    const retryAfterSeconds = Math.max(1, Math.ceil((current.started + 60_000 - now) / 1000));
    const key = clientKey(ip);
    const count = current.counts.get(key) ?? 0;
    if (count >= CLIENT_ERROR_REPORTS_PER_MINUTE) return { ok: false, retryAfterSeconds };
    if (count === 0 && current.counts.size >= MAX_COUNTED_CLIENTS) return { ok: false, retryAfterSeconds };
    current.counts.set(key, count + 1);
    return { ok: true };
  }

  router.post('/client-errors', validateBody('client-error-report'), (req, res) => {
    const budget = withinBudget(req.ip ?? '');
    if (!budget.ok) {
      res.set('retry-after', String(budget.retryAfterSeconds)).status(429).end();
      return;
    }
    const tenant = requestTenant(res);
    const body = req.body as ClientErrorReport;
    clientErrors.inc({ tenant: tenantLabel(tenant.id), kind: body.kind });
    deps.log({
      level: 'warn',
      msg: 'client error',
      tenant: tenant.id,
      kind: body.kind,
      name: scrubbed(body.name, CLIENT_ERROR_LIMITS.name),
      message: scrubbed(body.message, CLIENT_ERROR_LIMITS.message),
      ...(body.stack ? { stack: scrubbed(body.stack, CLIENT_ERROR_LIMITS.stack) } : {}),
      path: reportPath(body.path),
      userAgent: String(req.get('user-agent') ?? '').slice(0, 200),
    });
    res.status(204).end();
  });
  return router;
}
