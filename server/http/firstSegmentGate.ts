/**
 * A router entered only by the requests it can serve (docs/architecture.md "The request's way").
 *
 * The API mounts one router per feature, each at the API's root, in a fixed order. Express enters
 * every one of them for every request (router 2: a closure for its `next`, the URL trimmed and
 * restored, each of its layers matched), so a request to the last feature's route went through
 * some forty routers first: in a heap sampling under load, about a third of the bytes a read of
 * GET /api/subscriptions allocated. Most routers only serve paths under a few literal first
 * segments (`/subscriptions/…`, `/orders/…`); for those, one set look-up of the request's first
 * segment decides whether to enter at all. A router with a layer that may take any path (a
 * middleware without a path, a route starting with a parameter) is mounted as it is.
 */
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/** What the gate reads of Express's router stack (the same fields tests/server/security/apiRouteList.ts reads). */
interface Layer {
  rawPath?: unknown;
  route?: { path: unknown };
  handle?: { stack?: unknown };
}

function paths(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) {
    const all = value.map(paths);
    return all.some((p) => p === undefined) ? undefined : (all.flat() as string[]);
  }
  return undefined; // a regular expression: it could take any path
}

/** The literal first segment of a path, lower-cased (Express matches paths case-insensitively); undefined when it is not literal. */
function literalFirstSegment(path: string): string | undefined {
  const segment = path.split('/')[1] ?? '';
  if (segment === '' || /[:*?(){}\\]/.test(segment)) return undefined;
  return segment.toLowerCase();
}

/** The first segments of every path the router serves; undefined when any layer may take another. */
export function firstSegmentsOf(router: Router): ReadonlySet<string> | undefined {
  const segments = new Set<string>();
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    // A router mounted at the root (a feature gate's, server/tenancy/apiSlice.ts): its own paths.
    if (!layer.route && layer.rawPath === '/' && Array.isArray(layer.handle?.stack)) {
      const inner = firstSegmentsOf(layer.handle as unknown as Router);
      if (!inner) return undefined;
      for (const segment of inner) segments.add(segment);
      continue;
    }
    const layerPaths = paths(layer.route ? layer.route.path : layer.rawPath);
    if (!layerPaths) return undefined;
    for (const path of layerPaths) {
      const segment = literalFirstSegment(path);
      if (segment === undefined) return undefined;
      segments.add(segment);
    }
  }
  return segments;
}

/** The request's first path segment below the router's mount point, lower-cased. */
function firstSegmentOf(req: Request): string {
  const path = req.path;
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * The router behind a gate on its first segments, or the router itself when it has layers that may
 * take any path. Read the router's routes once they are all declared (when the API is mounted).
 * The gate keeps the router's `stack` visible, so listings of the API's routes see through it.
 */
export function gateByFirstSegment(router: Router): RequestHandler {
  const segments = firstSegmentsOf(router);
  if (!segments) return router;
  const gate = (req: Request, res: Response, next: NextFunction) => {
    if (segments.has(firstSegmentOf(req))) router(req, res, next);
    else next();
  };
  return Object.assign(gate, { stack: (router as unknown as { stack: unknown[] }).stack });
}
