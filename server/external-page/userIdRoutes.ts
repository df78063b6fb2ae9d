import { Router } from 'express';
import type { Database } from '../db/database';
import type { AuthService } from '../auth/authService';
import { unauthorized } from '../http/errors';
import { optionalUser, userOrUndefined } from '../auth/optionalUser';
import { getUserById } from '../store/userStore';
import type { UserIdAnswer } from '../../schemas/generated/public-pages';

/**
 * GET /user-id (this project's call; portal-core.md §2 catch-all: "if that URL contains the
 * placeholder -suid- and the user is logged in, the placeholder is replaced by a user id fetched
 * from the server"). Answers `{ userId }`: the account's single-sign-on id when it has one, else
 * the portal account id. Any logged-in user (partial logins too) may ask for their own id.
 */
export function userIdRoutes(deps: { db: Database; auth: AuthService }): Router {
  const router = Router();
  // optionalUser, not requireUser: a partial login may read its own id too (it is not a subscription call).
  // account-flows.md §7 names the same call GET /sso-profile/getSpektrumUserId: one handler for both paths.
  router.get(['/user-id', '/sso-profile/getSpektrumUserId'], optionalUser(deps.auth), async (_req, res) => {
    const user = userOrUndefined(res);
    if (!user) throw unauthorized();
    const { tenant } = res.locals.tenantContext;
    const record = await getUserById(deps.db, tenant.id, user.id);
    res.set('cache-control', 'private, no-store');
    const answer: UserIdAnswer = { userId: record?.ssoId ?? user.id };
    res.json(answer);
  });
  return router;
}
