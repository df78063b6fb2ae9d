import type { Queryable } from '../db/database';

/**
 * Authorisation requests waiting for the provider's answer (migration 004), keyed by the hashed
 * state and bound to the browser that started them by the hash of its binding cookie (migration 005).
 */
export interface OAuthRequestRow {
  code_verifier: string;
  nonce: string;
  redirect_uri: string;
  return_to: string | null;
}

export async function insertOAuthRequest(
  db: Queryable,
  tenantId: string,
  request: {
    stateHash: string;
    bindingHash: string;
    codeVerifier: string;
    nonce: string;
    redirectUri: string;
    returnTo?: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `insert into oauth_requests (tenant_id, state_hash, binding_hash, code_verifier, nonce, redirect_uri, return_to, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      tenantId,
      request.stateHash,
      request.bindingHash,
      request.codeVerifier,
      request.nonce,
      request.redirectUri,
      request.returnTo ?? null,
      request.expiresAt.toISOString(),
    ],
  );
}

/**
 * Takes a waiting request out (single use) only for the browser that started it: state and
 * binding must both match, so another client holding the state neither completes the sign-on
 * nor spends the victim's request. Expired ones are not returned.
 */
export async function takeOAuthRequest(
  db: Queryable,
  tenantId: string,
  stateHash: string,
  bindingHash: string,
  now: Date,
): Promise<OAuthRequestRow | undefined> {
  const rows = await db.query<OAuthRequestRow>(
    `delete from oauth_requests where tenant_id = $1 and state_hash = $2 and binding_hash = $3 and expires_at > $4
     returning code_verifier, nonce, redirect_uri, return_to`,
    [tenantId, stateHash, bindingHash, now.toISOString()],
  );
  return rows[0];
}
