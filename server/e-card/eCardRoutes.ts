/**
 * The e-card calls (account-flows.md §7): POST /e-cards for signed-in users, the template images
 * the tenant ships (GET /e-card/images/{file}, public like the portal's other images), and — the
 * project's own, docs/subscribers.md "E-cards" — GET /e-cards and DELETE /e-cards/{id}: a timed card can be
 * seen and cancelled until it goes out.
 */
import { Router } from 'express';
import type { ApiSlice } from '../tenancy/apiSlice';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { validateBody } from '../http/validateBody';
import { notFound } from '../http/errors';
import type { ECardRequest } from '../../schemas/generated/e-card-request';
import { accountCaller } from '../account/accountContext';
import { requestTenant } from '../tenancy/tenantContext';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import { readECardImage } from './eCardImages';
import type { ECards } from './eCardService';

/** The calls on the caller's cards, only while the tenant has the e-card feature. */
export function eCardSlice(deps: { auth: AuthService; eCards: ECards }): ApiSlice {
  const router = Router();

  router.post('/e-cards', requireUser(deps.auth), validateBody('e-card-request'), async (req, res) => {
    res.status(201).json(await deps.eCards.create(accountCaller(req, res), req.body as ECardRequest));
  });

  router.get('/e-cards', requireUser(deps.auth), async (req, res) => {
    res.json(await deps.eCards.scheduled(accountCaller(req, res)));
  });

  router.delete('/e-cards/:id', requireUser(deps.auth), async (req, res) => {
    await deps.eCards.cancel(accountCaller(req, res), String(req.params.id));
    res.status(204).end();
  });

  return { feature: 'e-card', router };
}

/**
 * The template images, not behind the slice's gate: with the feature off an image is missing
 * (404), as any file the tenant does not ship, not refused.
 */
export function eCardImageRoutes(deps: { assetsDir?: string }): Router {
  const router = Router();
  router.get('/e-card/images/:file', async (req, res) => {
    const tenant = requestTenant(res);
    // Only the images of this tenant's templates, and only while the feature is on.
    const template = isFeatureOn(tenant, 'e-card')
      ? tenant.eCard.templates.find((t) => t.previewImageUrl === req.params.file)
      : undefined;
    const image = template
      ? await readECardImage(tenant.id, template.previewImageUrl, deps.assetsDir)
      : undefined;
    if (!image) throw notFound('There is no such e-card image.');
    // API answers are no-store by default; a template image is the same for everyone.
    res.set('cache-control', 'public, max-age=3600').type(image.contentType).send(image.content);
  });

  return router;
}
