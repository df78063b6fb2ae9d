/**
 * The offer calls shared by cancellation, renewal and upgrade (account-flows.md §7; portal-core.md
 * §7 GET recommendations): recommendations, accept, and the pending payment behind a popup.
 */
import { accountCaller } from '../account/accountContext';
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { validateQuery, validQuery } from '../http/validateBody';
import type { RecommendationsQuery } from '../../schemas/generated/recommendations-query';
import type { AcceptRecommendationQuery } from '../../schemas/generated/accept-recommendation-query';
import type { OfferService } from './offerService';

export function offerRoutes(deps: { auth: AuthService; offers: OfferService }): Router {
  const router = Router();
  router.use('/subscriptions/:id', requireUser(deps.auth));

  router.get(
    '/subscriptions/:id/recommendations',
    validateQuery('recommendations-query'),
    async (req, res) => {
      res.json(
        await deps.offers.recommendations(
          accountCaller(req, res),
          String(req.params.id),
          validQuery<RecommendationsQuery>(res),
        ),
      );
    },
  );

  router.post(
    '/subscriptions/:id/recommendations/:recommendationId/accept',
    validateQuery('accept-recommendation-query'),
    async (req, res) => {
      const answer = await deps.offers.accept(
        accountCaller(req, res),
        String(req.params.id),
        String(req.params.recommendationId),
        validQuery<AcceptRecommendationQuery>(res),
      );
      res.json(answer);
    },
  );

  router.get('/subscriptions/:id/pending-payments', async (req, res) => {
    res.json(await deps.offers.openPayments(accountCaller(req, res), String(req.params.id)));
  });

  router.get('/subscriptions/:id/pending-payments/:paymentId', async (req, res) => {
    res.json(
      await deps.offers.pendingPayment(
        accountCaller(req, res),
        String(req.params.id),
        String(req.params.paymentId),
      ),
    );
  });

  // The popup was closed without reporting: a payment still pending is cancelled.
  router.post('/subscriptions/:id/pending-payments/:paymentId/abandon', async (req, res) => {
    res.json(
      await deps.offers.abandon(accountCaller(req, res), String(req.params.id), String(req.params.paymentId)),
    );
  });

  return router;
}
