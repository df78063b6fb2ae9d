import type { RequestHandler, Response } from 'express';
import { AUTH_HEADER } from '../../engine/domain/httpHeaders';
import type { AuthenticatedUser, AuthService } from './authService';
import { tenantContext } from '../tenancy/tenantContext';

/**
 * For the anonymous pages of route-inventory.txt (FAQ, contact, issue calendar): a request without
 * `x-auth-token` is anonymous; one with a token must carry a live session (an expired one is a
 * 401, which logs the portal out, portal-core.md §2 "Access rules"). Reuses a user an earlier
 * router already authenticated.
 */
export function optionalUser(auth: AuthService): RequestHandler {
  return async (req, res, next) => {
    if (res.locals.user) return next();
    const header = req.headers[AUTH_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    if (token) res.locals.user = await auth.authenticate(tenantContext(res).tenant, token);
    next();
  };
}

export function userOrUndefined(res: Response): AuthenticatedUser | undefined {
  return res.locals.user as AuthenticatedUser | undefined;
}
