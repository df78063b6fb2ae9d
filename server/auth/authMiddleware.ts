import type { Request, RequestHandler, Response } from 'express';
import { AUTH_HEADER } from '../../engine/domain/httpHeaders';
import { tenantContext } from '../tenancy/tenantContext';
import { forbidden } from '../http/errors';
import type { AuthenticatedUser, AuthService } from './authService';
import { isPartialScope, mayCall, sessionScope } from '../../engine/domain/sessionScope';

/**
 * What a partial login (order number, contact form: "logged in only", portal-core.md §4) may call:
 * the rule of engine/domain/sessionScope.ts `mayCall`, which the screens ask too, so they never
 * offer what is refused here.
 */
export function allowedForPartialLogin(apiPath: string, subscriptionId: string, method = 'GET'): boolean {
  return mayCall({ kind: 'subscription', subscriptionId }, method, apiPath);
}

/**
 * Requires a valid session of the request's tenant; puts the user on res.locals.user. The session is
 * looked up once per request: routers mounted on overlapping paths (/subscriptions and
 * /subscriptions/:id) reuse the user the first one found; the partial-login scope is checked each time.
 */
export function requireUser(auth: AuthService): RequestHandler {
  return async (req: Request, res: Response, next) => {
    const { tenant } = tenantContext(res);
    const header = req.headers[AUTH_HEADER];
    const user =
      (res.locals.user as AuthenticatedUser | undefined) ??
      (await auth.authenticate(tenant, Array.isArray(header) ? header[0] : header));
    const scope = sessionScope(user);
    if (isPartialScope(scope)) {
      const apiPath = req.originalUrl.split('?')[0].replace(/^.*?\/api(?=\/)/, '');
      if (!mayCall(scope, req.method, apiPath)) {
        throw forbidden(
          'partial_login',
          'You are signed in for one subscription only. Please log in with your account for the rest.',
        );
      }
    }
    res.locals.user = user;
    next();
  };
}

export function currentUser(res: Response): AuthenticatedUser {
  const user = res.locals.user as AuthenticatedUser | undefined;
  if (!user) throw new Error('currentUser used on a route without requireUser');
  return user;
}
