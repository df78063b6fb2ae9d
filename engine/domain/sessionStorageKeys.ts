/**
 * portal-core.md §4: "saved in session storage under an auth-state key". Where a tab keeps a tenant's session (session storage, one key per tenant so two portals in one
 * browser never share a token). The server's QA preview writes the same key to sign a frame in.
 */
export const authStateKey = (tenantId: string) => `portal.authState.${tenantId}`;
/** Local storage, no secret: "a tab of this tenant may hold a session", so new tabs know to ask. */
export const sessionHintKey = (tenantId: string) => `portal.sessionOpen.${tenantId}`;
