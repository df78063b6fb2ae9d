import { Router, type Request, type Response } from 'express';
import { tenantContext } from '../tenancy/tenantContext';
import { portalUrl } from '../tenancy/portalUrl';
import { parseCookies, tenantCookie } from '../http/cookies';
import { validateQuery } from '../http/validateBody';
import { samePortalPathOrUndefined } from '../../engine/domain/returnTo';
import { SSO_UNAVAILABLE_PARAM } from '../../engine/domain/loginNotices';
import { HttpError } from '../http/errors';
import { OAUTH_REQUEST_MINUTES, type OAuthLogin } from './oauthLogin';
import { newSecretToken } from './tokens';

/**
 * The cookie that binds an OAuth sign-on to the browser that started it (against login CSRF):
 * a random value only this browser holds; the waiting request stores its hash. httpOnly (no script
 * reads it), SameSite=Lax (sent on the portal's own calls), scoped to the tenant's base path.
 */
export const OAUTH_BINDING_COOKIE = 'portal_sso_binding';
const BINDING_SHAPE = /^[\w-]{43}$/;

function bindingOf(req: Request): string | undefined {
  const value = parseCookies(req.headers.cookie)[OAUTH_BINDING_COOKIE];
  return value && BINDING_SHAPE.test(value) ? value : undefined;
}

/** Set (or refreshed) for the lifetime of a waiting request. */
function setBindingCookie(req: Request, res: Response, binding: string): void {
  const { basePath } = tenantContext(res);
  res.append(
    'Set-Cookie',
    tenantCookie(OAUTH_BINDING_COOKIE, binding, {
      basePath,
      secure: req.secure,
      maxAgeSeconds: OAUTH_REQUEST_MINUTES * 60,
      httpOnly: true,
      sameSite: 'Lax',
    }),
  );
}

/** GET /sso/authorize (a page route, not /api): the SSO button lands here and is sent to the provider. */
export function ssoAuthorizeRoute(oauth: OAuthLogin): Router {
  const router = Router();
  router.get('/sso/authorize', async (req, res) => {
    const { tenant } = tenantContext(res);
    // Only a path inside the portal (engine/domain/returnTo.ts, shared with the screens).
    const returnTo = samePortalPathOrUndefined(req.query.returnTo);
    // The browser's binding is kept when it has one, so two tabs signing on at once both finish.
    const binding = bindingOf(req) ?? newSecretToken();
    let url: URL;
    try {
      url = await oauth.authorizationUrl(tenant, portalUrl(req, res), binding, returnTo);
    } catch (error) {
      if (!(error instanceof HttpError && error.code === 'sso_unavailable')) throw error;
      // A browser followed the SSO button: it goes back to the login page, which says the sign-on
      // cannot be reached and keeps the page asked for, not to an error in JSON.
      const query = new URLSearchParams({ [SSO_UNAVAILABLE_PARAM]: 'unavailable' });
      if (returnTo) query.set('returnTo', returnTo);
      res.redirect(302, `${tenantContext(res).basePath}login?${query}`);
      return;
    }
    setBindingCookie(req, res, binding);
    res.redirect(302, url.toString());
  });
  return router;
}

/** POST /api/login/oauth: the provider's query (code, state, …) passed through, no body (portal-core.md §7). */
export function oauthApiRoutes(oauth: OAuthLogin): Router {
  const router = Router();
  router.post('/login/oauth', validateQuery('oauth-login-query'), async (req, res) => {
    const { tenant } = tenantContext(res);
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    res.json(await oauth.complete(tenant, query, bindingOf(req)));
  });
  return router;
}
