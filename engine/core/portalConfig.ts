/**
 * The configuration the build inlines into each tenant's index.html (DESIGN.md "Building
 * tenants"): the validated tenant (public part), the merged texts of the shell and the tenant's
 * enabled features with the tenant's overrides applied, and — set by the server at serve time —
 * the base path the portal is mounted under (`/` for a tenant host, `/t/<id>/` otherwise).
 */
export type Locale = 'de-DE' | 'en-GB';
export const LOCALES: readonly Locale[] = ['de-DE', 'en-GB'];
export const FALLBACK_LOCALE: Locale = 'en-GB';

export interface ShellTenant {
  id: string;
  name: string;
  defaultLocale: Locale;
  locales: Locale[];
  logoUrl?: string;
  logoTargetUrl?: string;
  termsOfServiceUrl?: string;
  privacyPolicyUrl?: string;
  siteNoticeUrl?: string;
  contactUrl?: string;
  features: string[];
  publicationBlacklists?: Record<string, string[]>;
  embedding: { isEmbedded: boolean; showLangSelector: boolean; hideNavigation: boolean; parentOrigins: string[] };
  login: {
    magicLink: boolean;
    password: boolean;
    sessionIdleMinutes: number;
    standaloneLoginMessage?: string;
    oauth?: { issuer: string; clientId: string };
    kickerAuth?: { cookieName: string };
  };
  contact: { phone?: string; email?: string; fallbackPhone: string; fallbackEmail: string };
  announcement?: { html: string; variant: 'warning' | 'success' | 'error' | 'info' | 'primary' };
  defaultSubscriptionFilter?: 'active' | 'inactive' | 'all';
  coverImagePlaceholderUrl?: string;
}

export interface PortalConfig {
  tenant: ShellTenant;
  texts: Record<Locale, Record<string, string>>;
  /** Filled in by the server when it serves index.html; the build leaves the placeholder. */
  basePath: string;
  /** Only under `portal dev`: shows the development login. */
  devMode?: boolean;
}

declare global {
  interface Window {
    __PORTAL__?: PortalConfig;
  }
}

export function readPortalConfig(): PortalConfig {
  const element = document.getElementById('portal-config');
  if (!element?.textContent) throw new Error('Portal configuration missing from index.html');
  const config = JSON.parse(element.textContent) as PortalConfig;
  const base = document.querySelector('base')?.getAttribute('href') ?? '/';
  return { ...config, basePath: base };
}
