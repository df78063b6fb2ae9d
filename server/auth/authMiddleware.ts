import type { Request, RequestHandler, Response } from 'express';
import { AUTH_HEADER } from '../../engine/core/apiClient';
import { tenantContext } from '../tenancy/tenantContext';
import type { AuthenticatedUser, AuthService } from './authService';

/** Requires a valid session of the request's tenant; puts the user on res.locals.user. */
export function requireUser(auth: AuthService): RequestHandler {
  return async (req: Request, res: Response, next) => {
    const { tenant } = tenantContext(res);
    const header = req.headers[AUTH_HEADER];
    res.locals.user = await auth.authenticate(tenant, Array.isArray(header) ? header[0] : header);
    next();
  };
}

export function currentUser(res: Response): AuthenticatedUser {
  const user = res.locals.user as AuthenticatedUser | undefined;
  if (!user) throw new Error('currentUser used on a route without requireUser');
  return user;
}
