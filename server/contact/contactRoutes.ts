import { Router } from 'express';
import type { ApiSlice } from '../tenancy/apiSlice';
import type { AuthService } from '../auth/authService';
import { validateBody } from '../http/validateBody';
import { optionalUser, userOrUndefined } from '../auth/optionalUser';
import type { ContactService } from './contactService';
import { requestOrigin } from '../http/requestOrigin';
import { requestTenant } from '../tenancy/tenantContext';
import type { ContactSent } from '../../schemas/generated/public-pages';

/**
 * POST /contact and POST /login/contact-form (portal-core.md §7). The contact call is open to
 * anonymous visitors and signed-in users alike; which form's rules apply follows the session.
 * §2: a tenant without the contact-form feature has no contact form, on the server either: the
 * slice is gated by it where it is mounted.
 */
export function contactSlice(deps: { auth: AuthService; contact: ContactService }): ApiSlice {
  const router = Router();

  router.post('/contact', validateBody('contact-request'), optionalUser(deps.auth), async (req, res) => {
    const result = await deps.contact.send(
      requestTenant(res),
      userOrUndefined(res),
      req.body,
      req.ip ?? 'unknown',
    );
    const answer: ContactSent = { status: 'sent', id: result.id };
    res.status(201).json(answer);
  });

  // The anonymous form's publication list (§5 "publication when required"): code and description only.
  router.get('/contact/publications', async (_req, res) => {
    res.json(await deps.contact.publications(requestTenant(res)));
  });

  // Answers only 400 link results: a sign-in link is mailed instead of a session (contactService.login).
  router.post('/login/contact-form', validateBody('contact-form-login-request'), async (req, res) => {
    await deps.contact.login(requestTenant(res), req.body, requestOrigin(req, res));
  });

  return { feature: 'contact', router };
}
