import type { Request } from 'express';
import type { Locale } from '../../engine/domain/locales';
import { acceptedLanguages, chooseLocale, firstOfferedLocale } from '../../engine/domain/language';
import type { ServerTenant } from './tenantContext';

/**
 * The language of the screen that made the request: the screens send it as Accept-Language
 * (engine/core/apiClient.ts), so product names, offer texts and confirmation e-mails match the
 * subscriber's language. `explicit` (a body's `locale`, a link's `lang`) comes first. Only the
 * tenant's languages count; anything else is the tenant's default — the rule of
 * engine/domain/language.ts, which the portal starts by too.
 */
export function requestLocale(
  req: Request,
  tenant: Pick<ServerTenant, 'locales' | 'defaultLocale'>,
  explicit?: unknown,
): Locale {
  return chooseLocale(tenant, [
    typeof explicit === 'string' ? explicit : undefined,
    ...acceptedLanguages(req.get('accept-language')),
  ]);
}

/**
 * The tenant's language the request names, if any — a body's `locale` (the anonymous forms send
 * it), then Accept-Language: unlike requestLocale, no fallback to the tenant's default
 * (server/events/eventLocale.ts records "none named" as such).
 */
export function namedRequestLocale(req: Request, tenant: Pick<ServerTenant, 'locales'>): Locale | undefined {
  const explicit: unknown = (req.body as { locale?: unknown } | undefined)?.locale;
  // The rule of requestLocale, without its fallback.
  return firstOfferedLocale(tenant.locales, [
    typeof explicit === 'string' ? explicit : undefined,
    ...acceptedLanguages(req.get('accept-language')),
  ]);
}
