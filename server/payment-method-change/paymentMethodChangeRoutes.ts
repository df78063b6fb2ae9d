/**
 * The payment details calls (account-flows.md §7): GET /subscriptions/{id}/payment-details, POST
 * …/payment-details/sepa and /direct-debit (saved at once), POST …/credit-card and /paypal (the url
 * of the provider's page; the popup then polls GET …/pending-payments/{id} like an offer's).
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { validateBody } from '../http/validateBody';
import type { SepaRequest } from '../../schemas/generated/sepa-request';
import type { DirectDebitRequest } from '../../schemas/generated/direct-debit-request';
import { accountCaller } from '../account/accountContext';
import type { PaymentMethodChange } from './paymentMethodChangeService';

export function paymentMethodChangeRoutes(deps: {
  auth: AuthService;
  paymentMethods: PaymentMethodChange;
}): Router {
  const router = Router();
  router.use('/subscriptions/:id', requireUser(deps.auth));
  const id = (params: Record<string, string | string[]>) => String(params.id);

  router.get('/subscriptions/:id/payment-details', async (req, res) => {
    res.json(await deps.paymentMethods.details(accountCaller(req, res), id(req.params)));
  });
  router.post('/subscriptions/:id/payment-details/sepa', validateBody('sepa-request'), async (req, res) => {
    res.json(
      await deps.paymentMethods.sepa(accountCaller(req, res), id(req.params), req.body as SepaRequest),
    );
  });
  router.post(
    '/subscriptions/:id/payment-details/direct-debit',
    validateBody('direct-debit-request'),
    async (req, res) => {
      res.json(
        await deps.paymentMethods.directDebit(
          accountCaller(req, res),
          id(req.params),
          req.body as DirectDebitRequest,
        ),
      );
    },
  );
  for (const [path, method] of [
    ['credit-card', 'credit_card'],
    ['paypal', 'paypal'],
  ] as const) {
    router.post(`/subscriptions/:id/payment-details/${path}`, async (req, res) => {
      res.json(await deps.paymentMethods.popup(accountCaller(req, res), id(req.params), method));
    });
  }
  return router;
}
