import type { Request, RequestHandler } from 'express';
import type { ServerTenant, TenantContext } from './tenantContext';
import { hostName } from '../../tenant/hostNames';

/**
 * Resolves the tenant of a request (docs/architecture.md "The data flow"): by the Host header (hosts listed
 * in the tenant file) or by the `/t/<id>/` prefix, which is how one port shows every demo tenant. The
 * tenant is never taken from a value the client sends in a body or query.
 */
export class TenantDirectory {
  private readonly byId = new Map<string, ServerTenant>();
  private readonly byHost = new Map<string, ServerTenant>();

  constructor(tenants: readonly ServerTenant[]) {
    for (const tenant of tenants) {
      this.byId.set(tenant.id, tenant);
      for (const host of tenant.hosts) this.byHost.set(hostName(host), tenant);
    }
  }

  all(): ServerTenant[] {
    return [...this.byId.values()];
  }

  get(id: string): ServerTenant | undefined {
    return this.byId.get(id);
  }

  forHost(hostHeader: string | undefined): ServerTenant | undefined {
    if (!hostHeader) return undefined;
    return this.byHost.get(hostName(hostHeader.replace(/:\d+$/, '')));
  }
}

export function hostOf(req: Request): string | undefined {
  return req.headers.host;
}

/**
 * Middleware for the `/t/:tenantId` mount: unknown ids fall through to the next handler (404).
 * `besideDemoPages`: this host also serves the development pages or the outbox.
 */
export function prefixTenantResolver(directory: TenantDirectory, besideDemoPages = false): RequestHandler {
  return (req, res, next) => {
    // Only the shared host: on a tenant's own host another tenant's calls would run on the
    // origin that tenant's pages and their scripts share (its own are at the root there).
    if (directory.forHost(hostOf(req))) return next('router');
    const tenant = directory.get(String(req.params.tenantId));
    if (!tenant) return next('router');
    const context: TenantContext = {
      tenant,
      basePath: `/t/${tenant.id}/`,
      ...(besideDemoPages ? { besideDemoPages } : {}),
    };
    res.locals.tenantContext = context;
    res.locals.tenant = tenant;
    next();
  };
}

/**
 * The calls a tenant on its own host also answers under its `/t/<id>/` prefix, the shared host's
 * address the operator docs give (docs/going-live.md): on `portal dev`, where the tenant answers
 * at the root of 127.0.0.1, `/t/<id>/operator/v1/…` there would otherwise fall to the page.
 */
const PREFIXED_CALLS = /^(api|operator)(\/|$)/;

/** Middleware for host-based tenants at the root; other hosts fall through. */
export function hostTenantResolver(directory: TenantDirectory): RequestHandler {
  return (req, res, next) => {
    const tenant = directory.forHost(hostOf(req));
    if (!tenant) return next('router');
    // Another tenant's address is none of this one's pages or calls (docs/going-live.md "One host
    // per publisher"): 404, as the shared host's prefix refuses it here too, rather than this
    // tenant's page for a call that meant another. Whether that tenant exists or not, so the
    // answer tells no one which publishers the server has.
    const other = /^\/t\/([^/?#]+)/.exec(req.url)?.[1];
    if (other !== undefined && decodeSegment(other) !== tenant.id) return next('router');
    const prefix = `/t/${tenant.id}/`;
    if (req.url.startsWith(prefix) && PREFIXED_CALLS.test(req.url.slice(prefix.length)))
      req.url = req.url.slice(prefix.length - 1);
    const context: TenantContext = { tenant, basePath: '/' };
    res.locals.tenantContext = context;
    res.locals.tenant = tenant;
    next();
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
