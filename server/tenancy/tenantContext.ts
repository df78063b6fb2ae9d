import type { Response } from 'express';
import type { Locale } from '../../engine/core/portalConfig';

/** What the server needs of a validated tenant (a ResolvedTenant from cli/tenant satisfies it). */
export interface ServerTenant {
  id: string;
  name: string;
  hosts: string[];
  defaultLocale: Locale;
  features: string[];
  publicationBlacklists?: Partial<Record<string, string[]>>;
  embedding: { isEmbedded: boolean; parentOrigins: string[] };
  login: { magicLink: boolean; password: boolean; sessionIdleMinutes: number };
}

/** Per-request tenant context, set by the tenant resolver before any tenant route runs. */
export interface TenantContext {
  tenant: ServerTenant;
  /** `/` when resolved by host, `/t/<id>/` when resolved by prefix; always ends with `/`. */
  basePath: string;
}

export function tenantContext(res: Response): TenantContext {
  const context = res.locals.tenantContext as TenantContext | undefined;
  if (!context) throw new Error('tenant context missing: route mounted outside the tenant router');
  return context;
}
