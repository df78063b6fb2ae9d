/**
 * Route access levels of route-inventory.txt: login = needs a logged-in user; anonymous = open;
 * guest = only for users not logged in; loyalty = logged in and opted in to the loyalty programme
 * (else the opt-in landing, account-flows.md §2 "Loyalty programme"). account = login, and the
 * screen makes calls of the whole account, which a "logged in only" session (portal-core.md §4,
 * one subscription) may not make (engine/domain/sessionScope.ts): such a session sees a notice
 * instead, and no button leads there. The loyalty routes need the account too.
 *
 * In engine/domain because the feature catalog (schemas/generated/feature-catalog.json) carries
 * each route's access to the server's QA preview, which may not import the feature registry.
 */
export type RouteAccess = 'login' | 'account' | 'anonymous' | 'guest' | 'loyalty';

/** Whether a route's screen makes calls of the whole account (§4: not for a "logged in only" session). */
export const needsAccount = (access: RouteAccess): boolean => access === 'account' || access === 'loyalty';
