import type { Request, RequestHandler } from 'express';
import { httpRequestDuration, httpRequests, statusClass, tenantLabel } from './registry';

/** Methods as labels: the standard ones, everything else `other` (a client picks the method). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route template of a request, never its path (docs/going-live.md "Operations": no label carries an id or
 * an address). Express sets `req.route` when a route matches, while `req.baseUrl` is still the
 * path of the routers it passed through; the accessor below keeps both at that moment (the
 * routers restore baseUrl on the way out). Routers are mounted at fixed paths except the tenant
 * prefix `/t/:tenantId`, which is put back as its template.
 */
function watchRoute(req: Request): () => string {
  let route: unknown = undefined;
  let template: string | undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: { path?: unknown } | undefined) => {
      route = value;
      if (value && typeof value.path === 'string')
        template = `${req.baseUrl.replace(/^\/t\/[^/]+/, '/t/:tenantId')}${value.path}`;
    },
  });
  return () => template ?? 'unmatched';
}

/**
 * Counts every request and times it (portal_http_requests_total,
 * portal_http_request_duration_seconds) by method, route template, status class and tenant. Placed
 * first, so a refusal before any route (XSRF, a body too large, 404) is counted as `unmatched`.
 */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const routeOf = watchRoute(req);
    let counted = false;
    const count = () => {
      if (counted) return;
      counted = true;
      const labels = {
        method: METHODS.has(req.method) ? req.method : 'other',
        route: routeOf(),
        // A client that went away before the answer: 499, as the request log writes it.
        status_class: statusClass(res.writableFinished ? res.statusCode : 499),
        tenant: tenantLabel(res.locals.tenant?.id),
      };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.on('finish', count);
    res.on('close', count);
    next();
  };
}
