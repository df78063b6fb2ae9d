/**
 * The address calls (account-flows.md §7): POST /subscriptions/{id}/business-partners/{bpNumber},
 * GET /subscriptions/{id}/supported-countries?role, and GET /subscriptions/{id}/business-partners
 * (the partners with their roles the addresses page lists; its path is not shown in the spec).
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { validateBody, validateQuery, validQuery } from '../http/validateBody';
import type { AddressChangeRequest } from '../../schemas/generated/address-change-request';
import type { SupportedCountriesQuery } from '../../schemas/generated/supported-countries-query';
import { accountCaller } from '../account/accountContext';
import type { AddressChange } from './addressChangeService';

export function addressChangeRoutes(deps: { auth: AuthService; addresses: AddressChange }): Router {
  const router = Router();
  router.use('/subscriptions/:id', requireUser(deps.auth));

  router.get('/subscriptions/:id/business-partners', async (req, res) => {
    res.json(await deps.addresses.partners(accountCaller(req, res), String(req.params.id)));
  });
  router.get(
    '/subscriptions/:id/supported-countries',
    validateQuery('supported-countries-query'),
    async (req, res) => {
      res.json(
        await deps.addresses.countries(
          accountCaller(req, res),
          String(req.params.id),
          validQuery<SupportedCountriesQuery>(res).role,
        ),
      );
    },
  );
  router.post(
    '/subscriptions/:id/business-partners/:bpNumber',
    validateBody('address-change-request'),
    async (req, res) => {
      res.json(
        await deps.addresses.change(
          accountCaller(req, res),
          String(req.params.id),
          String(req.params.bpNumber),
          req.body as AddressChangeRequest,
        ),
      );
    },
  );
  return router;
}
