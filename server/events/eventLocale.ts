import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler } from 'express';
import type { Locale } from '../../engine/domain/locales';
import { requestTenant } from '../tenancy/tenantContext';
import { namedRequestLocale } from '../tenancy/requestLocale';

/**
 * The language of the screen a change is made on, recorded with its account event (migration 051).
 * The order system may reject the change days later without naming the subscriber's
 * correspondence language; the mail that tells the subscriber is then in the language they made the
 * change in (server/operator/changes/changeFeed.ts), not in the tenant's default.
 *
 * Every change flow records its event inside the request of the screen that asked for it, and the
 * screens name their language in every call (Accept-Language, engine/core/apiClient.ts; the
 * anonymous forms' bodies also as `locale`): so the API's requests carry the language for
 * whatever they record, and no flow has to hand it down to its recordEvent call. A flow that knows
 * the language better (an offer paid on a provider's page, whose callback names none) passes it to
 * recordEvent itself.
 */
const screenLocale = new AsyncLocalStorage<Locale>();

/**
 * Runs the rest of an API request with the language its screen names, when it names one the
 * tenant offers: a call that names none (a script's, a job's) records no language rather than
 * the tenant's default, so a later mail can tell "the subscriber's" from "the tenant's".
 */
export const screenLocaleContext: RequestHandler = (req, res, next) => {
  const locale = namedRequestLocale(req, requestTenant(res));
  if (locale === undefined) return next();
  screenLocale.run(locale, next);
};

/** The language of the screen whose request is running, if it named one. */
export function currentScreenLocale(): Locale | undefined {
  return screenLocale.getStore();
}
