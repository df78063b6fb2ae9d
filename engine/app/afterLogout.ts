import type { PortalConfig } from '../domain/portalConfig';
import { ACCOUNT_DELETED_PARAM, LEFT_CLUB_PARAM } from '../domain/loginNotices';
import { loginSearchFor } from '../domain/returnTo';

/**
 * Where a log-out leads once the session has ended (§4 log-out; the boot's `logout` in
 * engine/app/main.tsx, which loads this beside its call to the server, not with every page). A full
 * page load resets every store at once (no store can be forgotten).
 * - After a timeout, the login, whose sign-in leads back to the page the visitor was on (§2
 *   "Login"; an embedded portal stays on its page and shows the session-expired text, decided
 *   before this).
 * - Otherwise the login, saying why where the account was deleted or the club left; an embedded
 *   portal loads its page again without a session (§2: a missing user goes to login unless
 *   embedded), which says how to sign in and why; the page's query stays, but not a token login.
 */
export function leaveAfterLogout(
  config: PortalConfig,
  options: { timedOut?: boolean; accountDeleted?: boolean; leftClub?: boolean },
): void {
  const { pathname, search } = window.location;
  if (options.timedOut) {
    const page = pathname.startsWith(config.basePath) ? `/${pathname.slice(config.basePath.length)}` : '/';
    return window.location.assign(`${config.basePath}login${loginSearchFor(page, search)}`);
  }
  const notice = options.accountDeleted
    ? ACCOUNT_DELETED_PARAM
    : options.leftClub
      ? LEFT_CLUB_PARAM
      : undefined;
  if (config.tenant.embedding.isEmbedded) {
    const query = new URLSearchParams(search);
    for (const key of ['p', ACCOUNT_DELETED_PARAM, LEFT_CLUB_PARAM]) query.delete(key);
    if (notice) query.set(notice, '1');
    const kept = query.toString();
    return window.location.assign(`${pathname}${kept ? `?${kept}` : ''}`);
  }
  window.location.assign(`${config.basePath}login${notice ? `?${notice}=1` : ''}`);
}
