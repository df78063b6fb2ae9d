import { Router } from 'express';
import { tenantContext } from '../tenancy/tenantContext';
import { portalUrl } from '../tenancy/portalUrl';
import type { OAuthLogin, OAuthTenant } from './oauthLogin';

/** GET /sso/authorize (a page route, not /api): the SSO button lands here and is sent to the provider. */
export function ssoAuthorizeRoute(oauth: OAuthLogin): Router {
  const router = Router();
  router.get('/sso/authorize', async (req, res) => {
    const { tenant } = tenantContext(res);
    // Only a path inside the portal: "//host" would leave it.
    const returnTo = typeof req.query.returnTo === 'string' && /^\/(?!\/)/.test(req.query.returnTo) ? req.query.returnTo : undefined;
    const url = await oauth.authorizationUrl(tenant as OAuthTenant, portalUrl(req, res), returnTo);
    res.redirect(302, url.toString());
  });
  return router;
}

/** POST /api/login/oauth: the provider's query (code, state, …) passed through, no body (portal-core.md §7). */
export function oauthApiRoutes(oauth: OAuthLogin): Router {
  const router = Router();
  router.post('/login/oauth', async (req, res) => {
    const { tenant } = tenantContext(res);
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    res.json(await oauth.complete(tenant as OAuthTenant, query));
  });
  return router;
}
