import * as oidc from 'openid-client';
import type { Database } from '../db/database';
import { HttpError, unauthorized } from '../http/errors';
import type { ServerTenant } from '../tenancy/tenantContext';
import { createUser, findUserByEmail, findUserBySsoId, setSsoId } from '../store/userStore';
import { requireFeature } from '../tenancy/refusals';
import { normalizeEmail } from '../../engine/domain/fieldRules';
import { bareHost, isLoopbackAddress } from '../../tenant/publicAddress';
import type { AuthService, LoginResult } from './authService';
import { insertOAuthRequest, takeOAuthRequest } from '../store/oauthStore';
import { hashToken } from './tokens';
import { samePortalPathOrUndefined } from '../../engine/domain/returnTo';
import { recordEvent } from '../events/recordEvent';
import { publicFetch } from '../http/publicRequest';

export const OAUTH_REQUEST_MINUTES = 10;

/**
 * How long a failed discovery is remembered: the sign-on buttons of a busy portal would otherwise
 * each wait out the provider's time-out again, and knock at a provider that is down.
 */
export const FAILED_DISCOVERY_MS = 30_000;

/**
 * OpenID Connect sign-in for OAuth tenants (portal-core.md §2 "Login": the SSO button goes to
 * /sso/authorize; /login?code=… completes via POST /api/login/oauth). Authorisation-code flow with
 * PKCE, state and nonce; the waiting request lives in the database so any instance can finish it.
 * The client secret, when the provider needs one, comes from PORTAL_OAUTH_CLIENT_SECRET_<TENANT>.
 */
export function createOAuthLogin(deps: {
  db: Database;
  auth: AuthService;
  now: () => Date;
  log?: (entry: Record<string, unknown>) => void;
  /**
   * Development servers and tests only: a provider on this machine (the demo's on 127.0.0.1:4455).
   * `portal serve` never passes it (docs/going-live.md "Account events and webhooks", "Outbound requests").
   */
  allowPrivateProviders?: boolean;
}) {
  // Every request to the provider the tenant file names goes through the outbound guard.
  const guardedFetch: oidc.CustomFetch = (url, options) =>
    publicFetch(
      url,
      {
        method: options.method,
        headers: options.headers,
        body: options.body as Parameters<typeof publicFetch>[1]['body'],
        signal: options.signal,
      },
      // This machine's provider only: not the private network around a development server.
      { timeoutMs: 10_000, allowPrivate: deps.allowPrivateProviders ? 'loopback' : false },
    );
  const configurations = new Map<string, Promise<oidc.Configuration>>();

  function oauthSettings(tenant: ServerTenant) {
    const settings = tenant.login.oauth;
    // Asked here, not where a slice is mounted: /sso/authorize, outside the API, starts the sign-on too.
    requireFeature(tenant, 'oauth');
    if (!settings) throw new HttpError(403, 'feature_disabled', 'This portal does not offer single sign-on.');
    return settings;
  }

  /**
   * Discovery metadata is cached per tenant (it is the provider's public document, not session
   * state); a failed discovery for FAILED_DISCOVERY_MS.
   */
  function configuration(tenant: ServerTenant): Promise<oidc.Configuration> {
    const settings = oauthSettings(tenant);
    let config = configurations.get(tenant.id);
    if (!config) {
      const secret = process.env[`PORTAL_OAUTH_CLIENT_SECRET_${tenant.id.toUpperCase().replace(/-/g, '_')}`];
      const issuer = new URL(settings.issuer);
      // Loopback providers (the demo and the tests) speak plain HTTP; everything else must be HTTPS.
      const loopback = issuer.hostname === 'localhost' || isLoopbackAddress(bareHost(issuer.hostname));
      config = oidc
        .discovery(issuer, settings.clientId, secret, secret ? oidc.ClientSecretPost(secret) : oidc.None(), {
          [oidc.customFetch]: guardedFetch,
          ...(loopback ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .then((configured) => {
          configured[oidc.customFetch] = guardedFetch;
          return configured;
        })
        .catch((error) => {
          setTimeout(() => {
            if (configurations.get(tenant.id) === config) configurations.delete(tenant.id);
          }, FAILED_DISCOVERY_MS).unref();
          deps.log?.({
            level: 'warn',
            msg: 'oauth discovery failed',
            tenant: tenant.id,
            error: String(error),
          });
          throw new HttpError(
            502,
            'sso_unavailable',
            'The sign-on provider cannot be reached right now. Please try again later.',
          );
        });
      configurations.set(tenant.id, config);
    }
    return config;
  }

  return {
    /**
     * GET /sso/authorize: remembers state, nonce and PKCE verifier with the hash of the browser's
     * binding value (the caller sets it as a cookie), answers with the provider's URL.
     */
    async authorizationUrl(
      tenant: ServerTenant,
      portalUrl: string,
      binding: string,
      returnTo?: string,
    ): Promise<URL> {
      const settings = oauthSettings(tenant);
      const config = await configuration(tenant);
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const redirectUri = `${portalUrl}login`;
      await insertOAuthRequest(deps.db, tenant.id, {
        stateHash: hashToken(state),
        bindingHash: hashToken(binding),
        codeVerifier,
        nonce,
        redirectUri,
        returnTo,
        expiresAt: new Date(deps.now().getTime() + OAUTH_REQUEST_MINUTES * 60_000),
      });
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: (settings.scopes ?? ['openid', 'email']).join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
    },

    /**
     * POST /login/oauth with the provider's query passed through: exchanges the code, reads the
     * verified e-mail and signs in the account with that SSO subject (linking or creating it).
     * `binding` is the value of the binding cookie of the browser that posts: a state (and with it
     * the nonce) started in another browser is refused like an unknown one (login CSRF).
     */
    async complete(
      tenant: ServerTenant,
      query: URLSearchParams,
      binding: string | undefined,
    ): Promise<LoginResult & { returnTo?: string }> {
      const state = query.get('state');
      const waiting =
        state && binding
          ? await takeOAuthRequest(deps.db, tenant.id, hashToken(state), hashToken(binding), deps.now())
          : undefined;
      if (!waiting)
        throw unauthorized(
          'invalid_oauth_state',
          'The sign-on took too long or was started elsewhere. Please try again.',
        );
      // Only for a sign-on this browser started: a stranger's post never makes the server call
      // the provider (its discovery is fetched anew while the provider is unreachable).
      const config = await configuration(tenant);
      let email: string | undefined;
      let subject: string;
      let name: string | undefined;
      try {
        const callback = new URL(waiting.redirect_uri);
        callback.search = query.toString();
        const tokens = await oidc.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: waiting.code_verifier,
          expectedState: state!,
          expectedNonce: waiting.nonce,
        });
        const claims = tokens.claims()!;
        subject = claims.sub;
        const info = await oidc.fetchUserInfo(config, tokens.access_token, subject);
        // Only a verified address may name (or be linked to) an account.
        if (info.email_verified === true && typeof info.email === 'string')
          email = normalizeEmail(info.email);
        name = typeof info.name === 'string' ? info.name : undefined;
      } catch (error) {
        deps.log?.({
          level: 'warn',
          msg: 'oauth code exchange failed',
          tenant: tenant.id,
          error: String(error),
        });
        throw unauthorized(
          'oauth_failed',
          'The sign-on provider did not confirm the sign-in. Please try again.',
        );
      }
      if (!email)
        throw unauthorized('oauth_no_email', 'The sign-on provider did not share a verified e-mail address.');
      const ssoId = `oidc:${subject}`;
      const user = await deps.db.transaction(async (tx) => {
        const bySubject = await findUserBySsoId(tx, tenant.id, ssoId);
        if (bySubject) return bySubject;
        const byEmail = await findUserByEmail(tx, tenant.id, email!);
        if (byEmail) {
          await setSsoId(tx, tenant.id, byEmail.id, ssoId);
          return byEmail;
        }
        const created = await createUser(tx, tenant.id, { email: email!, displayName: name });
        await setSsoId(tx, tenant.id, created.id, ssoId);
        // An account event: a first sign-on creates an account like a registration does.
        await recordEvent(tx, tenant.id, 'account.created', {
          userId: created.id,
          email: created.email,
          source: 'oauth',
          bpNumbers: [],
        });
        return created;
      });
      const result = await deps.auth.startSession(tenant, user, 'oauth');
      // Checked again on the way out: a row written before the rule existed cannot send the browser away.
      return { ...result, returnTo: samePortalPathOrUndefined(waiting.return_to) };
    },
  };
}

export type OAuthLogin = ReturnType<typeof createOAuthLogin>;
