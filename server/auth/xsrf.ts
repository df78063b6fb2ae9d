import type { RequestHandler } from 'express';
import { XSRF_COOKIE, XSRF_HEADER } from '../../engine/domain/httpHeaders';
import { parseCookies, tenantCookie } from '../http/cookies';
import { forbidden } from '../http/errors';
import { tenantContext } from '../tenancy/tenantContext';
import { constantTimeEquals, newSecretToken } from './tokens';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The XSRF cookie/header pair of portal-core.md §7 (double-submit): every tenant response makes
 * sure the browser holds an XSRF cookie scoped to the tenant's base path; every unsafe /api request
 * must echo it in the x-xsrf-token header.
 */
export const issueXsrfCookie: RequestHandler = (req, res, next) => {
  const cookies = parseCookies(req.headers.cookie);
  if (!cookies[XSRF_COOKIE]) {
    const { basePath, tenant } = tenantContext(res);
    // An embedded portal runs in the publisher's page, usually another site: there the cookie must
    // be a partitioned third-party cookie (SameSite=None; Secure; Partitioned), which needs HTTPS.
    // Standalone portals keep SameSite=Strict.
    const partitioned = tenant.embedding.isEmbedded && req.secure;
    res.append(
      'Set-Cookie',
      tenantCookie(XSRF_COOKIE, newSecretToken(), {
        basePath,
        secure: req.secure,
        sameSite: partitioned ? 'None' : 'Strict',
        partitioned,
      }),
    );
  }
  next();
};

export const requireXsrf: RequestHandler = (req, _res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const cookie = parseCookies(req.headers.cookie)[XSRF_COOKIE];
  const header = req.headers[XSRF_HEADER];
  if (!cookie || typeof header !== 'string' || !constantTimeEquals(cookie, header)) {
    throw forbidden('xsrf_failed', 'The request is missing its XSRF token. Reload the page and try again.');
  }
  next();
};
