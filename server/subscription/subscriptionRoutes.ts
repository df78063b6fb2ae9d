import { Router } from 'express';
import type { Database } from '../db/database';
import { currentUser, requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { notFound } from '../http/errors';
import { tenantContext } from '../tenancy/tenantContext';
import { getSubscriptionForUser, listSubscriptionsForUser } from '../store/subscriptionStore';
import { subscriptionList, subscriptionPage } from './subscriptionPage';
import { requestLocale } from '../tenancy/requestLocale';
import { createSubscriptionListCache } from './subscriptionListCache';
import { compressToKeep, keptEncodingFor } from '../http/compression';

/**
 * GET /subscriptions and /subscriptions/{id} (portal-core.md §7): only the signed-in user's
 * subscriptions of the request's tenant; a subscription not linked to the user is a 404.
 */
export function subscriptionRoutes(deps: { db: Database; auth: AuthService; now: () => Date }): Router {
  const router = Router();
  const lists = createSubscriptionListCache();
  router.use('/subscriptions', requireUser(deps.auth));

  router.get('/subscriptions', async (req, res) => {
    const { tenant } = tenantContext(res);
    const user = currentUser(res);
    // In the screen's language.
    const locale = requestLocale(req, tenant);
    if (user.subscriptionId) {
      // A partial login sees the one subscription it was opened for (§4); rare enough to build each time.
      const subscriptions = await listSubscriptionsForUser(deps.db, tenant.id, user.id, { locale });
      const opened = subscriptions.filter((s) => s.id === user.subscriptionId);
      res.json(await subscriptionList(deps.db, tenant.id, opened, deps.now()));
      return;
    }
    // An answer made under the data version the session query just read is still true (migration 015).
    const key = { tenantId: tenant.id, userId: user.id, locale, dataVersion: user.subscriptionDataVersion };
    let answer = lists.get(key);
    if (!answer) {
      const body = Buffer.from(
        JSON.stringify(
          await subscriptionList(
            deps.db,
            tenant.id,
            await listSubscriptionsForUser(deps.db, tenant.id, user.id, { locale }),
            deps.now(),
          ),
        ),
      );
      // The app's own ETag function, as res.send would use it; send leaves a set ETag alone.
      const etagOf = req.app.get('etag fn') as ((body: Buffer, encoding?: string) => string) | undefined;
      answer = { body, etag: etagOf?.(body), encoded: {} };
      lists.set(key, answer);
    }
    if (answer.etag) res.setHeader('ETag', answer.etag);
    res.type('json');
    // Compressed as the API's compression would, once per answer (server/http/compression.ts).
    const encoding = keptEncodingFor(req, answer.body.length);
    if (!encoding) return void res.send(answer.body);
    res.vary('Accept-Encoding');
    res.setHeader('Content-Encoding', encoding);
    res.send((answer.encoded[encoding] ??= compressToKeep(answer.body, encoding)));
  });

  router.get('/subscriptions/:id', async (req, res) => {
    const { tenant } = tenantContext(res);
    const subscription = await getSubscriptionForUser(
      deps.db,
      tenant.id,
      currentUser(res).id,
      String(req.params.id),
      { locale: requestLocale(req, tenant) },
    );
    if (!subscription) throw notFound('There is no such subscription on your account.');
    res.json(await subscriptionPage(deps.db, tenant.id, subscription, deps.now()));
  });

  return router;
}
