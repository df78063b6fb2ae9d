/**
 * The offer calls shared by cancellation, renewal and upgrade (account-flows.md §7; portal-core.md
 * §7 GET recommendations): recommendations, accept, and the pending payment behind a popup.
 */
import { Router, type Request, type Response } from 'express';
import { currentUser, requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { validateQuery, validQuery } from '../http/validateBody';
import type { RecommendationsQuery } from '../../schemas/generated/recommendations-query';
import type { AcceptRecommendationQuery } from '../../schemas/generated/accept-recommendation-query';
import { requestLocale } from '../tenancy/requestLocale';
import { requestTenant, tenantContext } from '../tenancy/tenantContext';
import type { OfferService } from './offerService';

/** Who asks, in which language, on which portal (the offer service's caller). */
export function offerCaller(req: Request, res: Response) {
  const tenant = requestTenant(res);
  return {
    tenant,
    user: currentUser(res),
    locale: requestLocale(req, tenant),
    basePath: tenantContext(res).basePath,
  };
}

export function offerRoutes(deps: { auth: AuthService; offers: OfferService }): Router {
  const router = Router();
  router.use('/subscriptions/:id', requireUser(deps.auth));

  router.get(
    '/subscriptions/:id/recommendations',
    validateQuery('recommendations-query'),
    async (req, res) => {
      res.json(
        await deps.offers.recommendations(
          offerCaller(req, res),
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
        offerCaller(req, res),
        String(req.params.id),
        String(req.params.recommendationId),
        validQuery<AcceptRecommendationQuery>(res),
      );
      res.json(answer);
    },
  );

  router.get('/subscriptions/:id/pending-payments/:paymentId', async (req, res) => {
    res.json(
      await deps.offers.pendingPayment(
        offerCaller(req, res),
        String(req.params.id),
        String(req.params.paymentId),
      ),
    );
  });

  // The popup was closed without reporting: a payment still pending is cancelled.
  router.post('/subscriptions/:id/pending-payments/:paymentId/abandon', async (req, res) => {
    res.json(
      await deps.offers.abandon(offerCaller(req, res), String(req.params.id), String(req.params.paymentId)),
    );
  });

  return router;
}
