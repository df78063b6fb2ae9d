import { Router } from 'express';
import type { Database } from '../db/database';
import type { AuthService } from '../auth/authService';
import { currentUser } from '../auth/authMiddleware';
import { requireUserOnce } from '../faq/optionalUser';
import { getUserById } from '../store/userStore';

/**
 * GET /user-id (this project's call; portal-core.md §2 catch-all: "if that URL contains the
 * placeholder -suid- and the user is logged in, the placeholder is replaced by a user id fetched
 * from the server"). Answers `{ userId }`: the account's single-sign-on id when it has one, else
 * the portal account id. Any logged-in user (partial logins too) may ask for their own id.
 */
export function userIdRoutes(deps: { db: Database; auth: AuthService }): Router {
  const router = Router();
  router.get('/user-id', requireUserOnce(deps.auth), async (_req, res) => {
    const user = currentUser(res);
    const { tenant } = res.locals.tenantContext;
    const record = await getUserById(deps.db, tenant.id, user.id);
    res.set('cache-control', 'private, no-store');
    res.json({ userId: record?.ssoId ?? user.id });
  });
  return router;
}
