import type { Queryable } from '../db/database';

/** Authorisation requests waiting for the provider's answer (migration 004), keyed by the hashed state. */
export interface OAuthRequestRow {
  code_verifier: string;
  nonce: string;
  redirect_uri: string;
  return_to: string | null;
}

export async function insertOAuthRequest(
  db: Queryable,
  tenantId: string,
  request: { stateHash: string; codeVerifier: string; nonce: string; redirectUri: string; returnTo?: string; expiresAt: Date },
): Promise<void> {
  await db.query(
    `insert into oauth_requests (tenant_id, state_hash, code_verifier, nonce, redirect_uri, return_to, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [tenantId, request.stateHash, request.codeVerifier, request.nonce, request.redirectUri, request.returnTo ?? null, request.expiresAt.toISOString()],
  );
}

/** Takes a waiting request out (single use); expired ones are not returned. */
export async function takeOAuthRequest(db: Queryable, tenantId: string, stateHash: string, now: Date): Promise<OAuthRequestRow | undefined> {
  const rows = await db.query<OAuthRequestRow>(
    `delete from oauth_requests where tenant_id = $1 and state_hash = $2 and expires_at > $3
     returning code_verifier, nonce, redirect_uri, return_to`,
    [tenantId, stateHash, now.toISOString()],
  );
  return rows[0];
}
