import type { Request, RequestHandler, Router } from 'express';

/**
 * The route template of a request, never its path (docs/going-live.md "Operations": no metric
 * label and no span name carries an id or an address). When a route matches, Express sets
 * `req.route` while `req.baseUrl` is still the path of the routers the request passed through
 * (they restore it on the way out), so the template is taken then: by the route's own handlers,
 * which recordRouteTemplates makes take it first, and by the path parameter check before them
 * (server/http/inputGuard.ts). Routers are mounted at fixed paths except the tenant prefix
 * `/t/:tenantId`, which is put back as its template. The request metrics label with it and the
 * request's trace span is named by it.
 *
 * Why not an accessor on `req.route` that notes each assignment: a property defined on every
 * request gives each request object a shape of its own, and every later read of a request
 * property in the routers then misses V8's inline caches. That cost a read of
 * GET /api/subscriptions about a fifth of the server's time (docs/testing.md "Tests and measurements").
 */
const TEMPLATE = Symbol('routeTemplate');

type Stamped = Request & { [TEMPLATE]?: string };

/** Notes the template of the route that has just matched `req` (a no-op before any has). */
export function recordRouteTemplate(req: Request): void {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string')
    (req as Stamped)[TEMPLATE] = `${req.baseUrl.replace(/^\/t\/[^/]+/, '/t/:tenantId')}${path}`;
}

/** The template of the route that matched, `unmatched` when none did (a 404, a refusal before any route). */
export function routeTemplateOf(req: object): string {
  return (req as Stamped)[TEMPLATE] ?? 'unmatched';
}

interface RouterLayer {
  /** An Express route; connect's layers (Vite's middleware under `portal dev`) have a path string here. */
  route?: { stack?: unknown } | string;
  handle: RequestHandler & { stack?: unknown };
}

const RECORDING = Symbol('recordsRouteTemplate');

/**
 * Makes every route of `router` and of the routers mounted in it note its template before its own
 * handlers run. Call once the routers hold their routes; a router mounted in two places (the
 * feature routers are, under the host and under the `/t/` prefix) is changed once.
 */
export function recordRouteTemplates(router: Router, seen = new WeakSet<object>()): void {
  if (seen.has(router)) return;
  seen.add(router);
  for (const layer of router.stack as unknown as RouterLayer[]) {
    if (typeof layer.route === 'object' && Array.isArray(layer.route.stack)) {
      for (const step of layer.route.stack as RouterLayer[]) {
        const handle = step.handle as RequestHandler & { [RECORDING]?: true };
        // Error handlers (four parameters) run only after a handler that already noted it.
        if (handle[RECORDING] || handle.length > 3) continue;
        // Three parameters, as the handler had: the router tells error handlers by their length.
        const recording = function (this: unknown, req, res, next) {
          recordRouteTemplate(req);
          return handle.call(this, req, res, next);
        } as RequestHandler & { [RECORDING]?: true };
        recording[RECORDING] = true;
        step.handle = recording;
      }
    } else if (!layer.route && typeof layer.handle === 'function' && Array.isArray(layer.handle.stack)) {
      recordRouteTemplates(layer.handle as unknown as Router, seen);
    }
  }
}
