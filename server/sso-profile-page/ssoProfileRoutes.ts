/**
 * The SSO profile calls (account-flows.md §7):
 * GET /sso-profile/getProfile, POST /sso-profile/executeUpdatePassword, POST /sso-profile/updateUser,
 * POST /sso-profile/deleteUser; and POST /sso-profile/confirmEmail (this project's: the link mailed to
 * the new address carries its token to the profile page, which sends it here) and, without a
 * session, POST /sso-profile/undoEmailChange (the link of the notice to the old address) and
 * GET /sso-profile/undoEmailChange/state?token (whether that link still takes the account back).
 * GET /sso-profile/getSpektrumUserId is served by server/external-page/userIdRoutes.ts (one implementation).
 * All of them only while the tenant has the sso-profile-page feature (gated where the slice is mounted);
 * all but the undo behind a session of the tenant.
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { requestOrigin } from '../http/requestOrigin';
import { validateBody } from '../http/validateBody';
import { accountCaller } from '../account/accountContext';
import type { SsoPasswordRequest } from '../../schemas/generated/sso-password-request';
import type { SsoProfileService } from './ssoProfileService';
import type { ApiSlice } from '../tenancy/apiSlice';
import { requestTenant } from '../tenancy/tenantContext';
import { requestLocale } from '../tenancy/requestLocale';

export function ssoProfileSlice(deps: { auth: AuthService; ssoProfile: SsoProfileService }): ApiSlice {
  const router = Router();
  const user = requireUser(deps.auth);
  router.get('/sso-profile/getProfile', user, async (req, res) => {
    res
      .set('cache-control', 'private, no-store')
      .json(await deps.ssoProfile.profile(accountCaller(req, res)));
  });
  router.post(
    '/sso-profile/executeUpdatePassword',
    user,
    validateBody('sso-password-request'),
    async (req, res) => {
      res.json(
        await deps.ssoProfile.updatePassword(
          accountCaller(req, res),
          req.body as SsoPasswordRequest,
          req.ip ?? 'unknown',
        ),
      );
    },
  );
  router.post('/sso-profile/updateUser', user, validateBody('sso-email-request'), async (req, res) => {
    res.json(
      await deps.ssoProfile.requestEmailChange(
        accountCaller(req, res),
        String(req.body.email),
        requestOrigin(req, res).portalUrl,
      ),
    );
  });
  router.post(
    '/sso-profile/confirmEmail',
    user,
    validateBody('sso-email-confirm-request'),
    async (req, res) => {
      res.json(
        await deps.ssoProfile.confirmEmailChange(
          accountCaller(req, res),
          String(req.body.token),
          requestOrigin(req, res).portalUrl,
        ),
      );
    },
  );
  // Whether the undo link still takes the account back, for its page (no session, changes nothing).
  router.get('/sso-profile/undoEmailChange/state', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    res
      .set('cache-control', 'no-store')
      .json(await deps.ssoProfile.undoLinkState(requestTenant(res), token, req.ip ?? 'unknown'));
  });
  // The notice to the old address takes the account back: no session, the old mailbox is the proof.
  router.post('/sso-profile/undoEmailChange', validateBody('sso-email-confirm-request'), async (req, res) => {
    const tenant = requestTenant(res);
    res.json(
      await deps.ssoProfile.undoEmailChange(
        tenant,
        String(req.body.token),
        requestLocale(req, tenant),
        req.ip ?? 'unknown',
      ),
    );
  });
  router.post('/sso-profile/deleteUser', user, validateBody('sso-email-request'), async (req, res) => {
    res.json(await deps.ssoProfile.deleteAccount(accountCaller(req, res), String(req.body.email)));
  });
  return { feature: 'sso-profile-page', router };
}
