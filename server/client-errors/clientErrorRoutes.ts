import { Router } from 'express';
import type { ApiDeps } from '../featureManifest';
import { validateBody } from '../http/validateBody';
import { clientKey, tooMany } from '../auth/rateLimit';
import { clientErrors, tenantLabel } from '../metrics/registry';
import { requestTenant } from '../tenancy/tenantContext';
import {
  CLIENT_ERROR_LIMITS,
  reportPath,
  scrubbed,
  type ClientErrorReport,
} from '../../engine/domain/clientErrors';

/** Reports one client (an IPv4 address, an IPv6 /64) may send per minute to one instance. */
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 20;
/**
 * Reports of one tenant an instance takes per minute, whoever sends them: however many addresses a
 * flood comes from, the log grows by at most this many lines a minute and tenant.
 */
export const CLIENT_ERROR_REPORTS_PER_TENANT_MINUTE = 300;
/** Clients counted at once: the counts cannot grow without end either. */
const MAX_COUNTED_CLIENTS = 10_000;

/**
 * `POST /api/client-errors` (engine/core/clientErrorSender.ts sends them): a browser's error
 * report, anonymous like the pages it comes from, logged as one `client error` line and counted in
 * portal_client_errors_total (docs/going-live.md "Client error reports"). Whatever the browser
 * sent is untrusted: the schema bounds every field, the server scrubs e-mail addresses, numbers,
 * quoted input, URL queries and the path again (engine/domain/clientErrors.ts), and past a client's
 * or the tenant's budget the answer is 429 and nothing is logged. Nothing is stored; the budgets
 * are each instance's own, in memory (docs/architecture.md "Running more than one instance").
 */
export function clientErrorRoutes(deps: Pick<ApiDeps, 'log' | 'now'>): Router {
  const router = Router();
  let current = { started: 0, clients: new Map<string, number>(), tenants: new Map<string, number>() };

  /** Counts a report; answers the seconds to wait when a budget is spent. */
  function spentBudget(tenantId: string, ip: string): number | undefined {
    const now = deps.now().getTime();
    if (now - current.started >= 60_000) current = { started: now, clients: new Map(), tenants: new Map() };
    const wait = Math.max(1, Math.ceil((current.started + 60_000 - now) / 1000));
    const client = `${tenantId} ${clientKey(ip)}`;
    const byClient = current.clients.get(client) ?? 0;
    const byTenant = current.tenants.get(tenantId) ?? 0;
    if (byClient >= CLIENT_ERROR_REPORTS_PER_MINUTE || byTenant >= CLIENT_ERROR_REPORTS_PER_TENANT_MINUTE)
      return wait;
    if (byClient === 0 && current.clients.size >= MAX_COUNTED_CLIENTS) return wait;
    current.clients.set(client, byClient + 1);
    current.tenants.set(tenantId, byTenant + 1);
    return undefined;
  }

  router.post('/client-errors', validateBody('client-error-report'), (req, res) => {
    const tenant = requestTenant(res);
    const wait = spentBudget(tenant.id, req.ip ?? '');
    if (wait !== undefined) throw tooMany(wait);
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
      userAgent: scrubbed(String(req.get('user-agent') ?? ''), 200),
    });
    res.status(204).end();
  });
  return router;
}
