/**
 * The API's calls as the app itself registers them:
 * read from Express's router stack, so a route of a router a feature's manifest mounts
 * (server/<feature>/manifest.ts) is in the security suite the moment it exists, with no list to keep by hand.
 */
import type { Express, Router } from 'express';

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the tenant's /api, with Express parameters: `/subscriptions/:id/attributes`. */
  path: string;
  /** The parameter names of the path, in order. */
  params: string[];
}

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function paths(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(paths);
  return [];
}

function join(prefix: string, path: string): string {
  if (path === '/' || path === '') return prefix || '/';
  return `${prefix.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

function collect(stack: Layer[], prefix: string, out: Array<{ method: string; path: string }>): void {
  for (const layer of stack) {
    if (layer.route) {
      for (const path of paths(layer.route.path)) {
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on) out.push({ method: method.toUpperCase(), path: join(prefix, path) });
      }
    } else if (layer.handle && Array.isArray(layer.handle.stack)) {
      const mounts = paths(layer.rawPath);
      for (const mount of mounts.length ? mounts : ['/'])
        collect(layer.handle.stack, join(prefix, mount), out);
    }
  }
}

/**
 * Every route of a router's stack under `base`, as paths relative to it. `all` routes (Express's
 * `router.all`) are listed as GET and POST.
 */
function routesUnder(stack: Layer[], base: string): ApiRoute[] {
  const all: Array<{ method: string; path: string }> = [];
  collect(stack, '', all);
  const seen = new Set<string>();
  const routes: ApiRoute[] = [];
  const expanded = all.flatMap((route) =>
    route.method === '_ALL' ? ['GET', 'POST'].map((method) => ({ ...route, method })) : [route],
  );
  for (const { method, path } of expanded) {
    const inside = base === '' || path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}{`);
    if (!inside || !(METHODS as readonly string[]).includes(method)) continue;
    const relative = path.slice(base.length);
    const key = `${method} ${relative}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({
      method: method as ApiRoute['method'],
      path: relative,
      params: [...relative.matchAll(/:(\w+)/g)].map((m) => m[1]),
    });
  }
  return routes;
}

const stackOf = (app: Express) => (app as unknown as { router: { stack: Layer[] } }).router.stack;

/** Every route under the shared prefix's `/t/:tenantId/api`, as paths relative to that API base. */
export function apiRoutes(app: Express): ApiRoute[] {
  return routesUnder(stackOf(app), '/t/:tenantId/api').filter((route) => route.path.startsWith('/'));
}

/** Every route of the operator API under the shared prefix (`/t/:tenantId/operator/v1`), relative to it. */
export function operatorRoutes(app: Express): ApiRoute[] {
  return routesUnder(stackOf(app), '/t/:tenantId/operator/v1').filter((route) => route.path.startsWith('/'));
}

/**
 * Every route of the studio's router (server/studio/studioRoutes.ts), relative to `/studio`. The app
 * loads that router on the first request under /studio, so the suite makes one of its own to read.
 */
export function studioRoutes(router: Router): ApiRoute[] {
  return routesUnder((router as unknown as { stack: Layer[] }).stack, '');
}

/** Every GET route the app itself registers, with its full path (the walk over its pages). */
export function appGetRoutes(app: Express): ApiRoute[] {
  return routesUnder(stackOf(app), '').filter((route) => route.method === 'GET');
}

/** Unsafe methods: the ones the XSRF check must guard (portal-core.md §7). */
export const isUnsafe = (route: ApiRoute) => route.method !== 'GET';
