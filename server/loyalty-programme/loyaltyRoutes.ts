/**
 * The loyalty programme's calls (account-flows.md §7), each behind a session of the tenant:
 * GET /loyalty-programme/tiers, GET and POST /loyalty-programme/optin,
 * POST /loyalty-programme/favorite-reward, POST /loyalty-programme/claim-reward,
 * GET /loyalty-programme/history-entries. All of them only while the tenant has the
 * loyalty-programme feature (gated where the slice is mounted).
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { validateBody } from '../http/validateBody';
import { accountCaller } from '../account/accountContext';
import type { LoyaltyService } from './loyaltyService';
import type { ApiSlice } from '../tenancy/apiSlice';

export function loyaltySlice(deps: { auth: AuthService; loyalty: LoyaltyService }): ApiSlice {
  const router = Router();
  const user = requireUser(deps.auth);
  const base = '/loyalty-programme';
  router.get(`${base}/tiers`, user, async (req, res) => {
    res.set('cache-control', 'private, no-store').json(await deps.loyalty.tiers(accountCaller(req, res)));
  });
  router.get(`${base}/optin`, user, async (req, res) => {
    res.set('cache-control', 'private, no-store').json(await deps.loyalty.optIn(accountCaller(req, res)));
  });
  router.post(`${base}/optin`, user, validateBody('loyalty-optin-request'), async (req, res) => {
    res.json(await deps.loyalty.setOptIn(accountCaller(req, res), Boolean(req.body.loyaltyOption)));
  });
  router.post(`${base}/favorite-reward`, user, validateBody('loyalty-favorite-request'), async (req, res) => {
    res.json(
      await deps.loyalty.setFavorite(
        accountCaller(req, res),
        String(req.body.rewardId),
        Boolean(req.body.favorite),
      ),
    );
  });
  router.post(`${base}/claim-reward`, user, validateBody('loyalty-claim-request'), async (req, res) => {
    res.json(
      await deps.loyalty.claim(accountCaller(req, res), String(req.body.tierCode), String(req.body.rewardId)),
    );
  });
  router.get(`${base}/history-entries`, user, async (req, res) => {
    res.set('cache-control', 'private, no-store').json(await deps.loyalty.history(accountCaller(req, res)));
  });
  return { feature: 'loyalty-programme', router };
}
