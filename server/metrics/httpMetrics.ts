import type { RequestHandler } from 'express';
import { routeTemplateOf } from '../http/routeTemplate';
import { httpRequestDuration, httpRequests, statusClass, tenantLabel } from './registry';

/** Methods as labels: the standard ones, everything else `other` (a client picks the method). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts every request and times it (portal_http_requests_total,
 * portal_http_request_duration_seconds) by method, route template, status class and tenant. Placed
 * first, so a refusal before any route (XSRF, a body too large, 404) is counted too, as `unmatched`.
 */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // One listener: a response closes after it finishes, and also when its client went away.
    res.on('close', () => {
      const labels = {
        method: METHODS.has(req.method) ? req.method : 'other',
        route: routeTemplateOf(req),
        // A client that went away before the answer: 499, as the request log writes it.
        status_class: statusClass(res.writableFinished ? res.statusCode : 499),
        tenant: tenantLabel(res.locals.tenant?.id),
      };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
