import type { Request } from 'express';
import type { Locale } from '../../engine/core/portalConfig';
import type { ServerTenant } from './tenantContext';

/**
 * The language of the screen that made the request: the screens send it as Accept-Language
 * (engine/core/apiClient.ts), so offer texts and confirmation e-mails match the subscriber's
 * language. Only the tenant's languages count; anything else is the tenant's default.
 */
export function requestLocale(req: Request, tenant: Pick<ServerTenant, 'locales' | 'defaultLocale'>, explicit?: unknown): Locale {
  const offered = tenant.locales as readonly string[];
  if (typeof explicit === 'string' && offered.includes(explicit)) return explicit as Locale;
  const header = req.get('accept-language') ?? '';
  for (const part of header.split(',')) {
    const tag = part.split(';')[0].trim();
    const match = offered.find((locale) => locale.toLowerCase() === tag.toLowerCase()) ?? offered.find((locale) => locale.slice(0, 2) === tag.slice(0, 2).toLowerCase());
    if (tag && match) return match as Locale;
  }
  return tenant.defaultLocale as Locale;
}
