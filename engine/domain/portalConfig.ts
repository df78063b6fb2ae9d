/**
 * The configuration the build inlines into each tenant's index.html (docs/architecture.md "Building
 * tenants"): the validated tenant (public part), the texts of the shell and the tenant's enabled
 * features with the tenant's overrides applied (in a built page: the overrides and the URLs of the
 * base texts' files), and — set by the server at serve time —
 * the base path the portal is mounted under (`/` for a tenant host, `/t/<id>/` otherwise).
 */
import type { FaqConfigWithDefaults, TenantWithDefaults } from '../../schemas/generated/tenant';

import type { Locale } from './locales';

/**
 * The tenant as the page carries it: every setting of schemas/tenant.schema.json with its defaults
 * applied (the generated TenantWithDefaults), minus what tenant/page/tenantPage.ts keeps out of a
 * public page — hosts, the schema pointer, raw texts (merged into `texts` below), the theme (inlined
 * as CSS), the webhook endpoints (secrets of the publisher's systems), the offer experiments (issue
 * 27: operators' business; the server filters the offers) and the FAQ entries (served by
 * GET /api/faq, which filters them by the session, portal-core.md §6).
 */
export type PortalTenant = Omit<
  TenantWithDefaults,
  '$schema' | 'hosts' | 'texts' | 'theme' | 'webhooks' | 'offerExperiments' | 'faq'
> & {
  faq: Omit<FaqConfigWithDefaults, 'entries'>;
};

export interface PortalConfig {
  tenant: PortalTenant;
  /**
   * Texts by locale: the full tables, or — when `textFiles` is set (a built page) — only the
   * tenant's overrides, laid over the files' base texts.
   */
  texts: Partial<Record<Locale, Record<string, string>>>;
  /**
   * Only in a built page: per offered locale, the hashed file (relative to <base href>) with the
   * complete base texts of the tenant's features (cli/build/buildTenants.ts).
   */
  textFiles?: Partial<Record<Locale, string>>;
  /** Filled in by the server when it serves index.html; the build leaves the placeholder. */
  basePath: string;
  /** Only under `portal dev`: shows the development login. */
  devMode?: boolean;
}
