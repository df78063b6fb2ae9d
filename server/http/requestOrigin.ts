import type { Request, Response } from 'express';
import { tenantContext } from '../tenancy/tenantContext';
import { portalUrl } from '../tenancy/portalUrl';
import { requestLocale } from '../tenancy/requestLocale';

/** Where a request comes from, for rate limits and for the links in e-mails. */
export interface RequestOrigin {
  /** `http://host/t/acme/`: the portal's base URL as the browser sees it. */
  portalUrl: string;
  /** The client address (rate limit per client). */
  client: string;
  locale?: string;
}

/**
 * The locale is the one the visitor used (the body's `locale`, else the screen's Accept-Language),
 * and only one the tenant offers: e-mails and the links in them speak that language.
 */
export function requestOrigin(req: Request, res: Response): RequestOrigin {
  const locale = requestLocale(req, tenantContext(res).tenant, req.body?.locale);
  return { portalUrl: portalUrl(req, res), client: req.ip ?? 'unknown', locale };
}
