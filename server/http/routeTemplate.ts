import type { Request, RequestHandler } from 'express';

/**
 * The route template of a request, never its path (docs/going-live.md "Operations": no metric
 * label and no span name carries an id or an address). Express sets `req.route` when a route
 * matches, while `req.baseUrl` is still the path of the routers it passed through; the accessor
 * below keeps both at that moment (the routers restore baseUrl on the way out). Routers are
 * mounted at fixed paths except the tenant prefix `/t/:tenantId`, which is put back as its
 * template. The request metrics label with it and the request's trace span is named by it.
 */
const TEMPLATE = Symbol('routeTemplate');

type Watched = Request & { [TEMPLATE]?: string };

function watch(req: Watched): void {
  let route: unknown = undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: { path?: unknown } | undefined) => {
      route = value;
      if (value && typeof value.path === 'string')
        req[TEMPLATE] = `${req.baseUrl.replace(/^\/t\/[^/]+/, '/t/:tenantId')}${value.path}`;
    },
  });
}

/** Placed first: records the template of the route that answers the request. */
export const watchRouteTemplate: RequestHandler = (req, _res, next) => {
  watch(req);
  next();
};

/** The template of the route that matched, `unmatched` when none did (a 404, a refusal before any route). */
export function routeTemplateOf(req: object): string {
  return (req as Watched)[TEMPLATE] ?? 'unmatched';
}
