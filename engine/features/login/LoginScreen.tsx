import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../../core/translation';
import { authStateAtom, isLoggedIn, type LoginResponse } from '../../core/authState';
import { ApiError } from '../../core/apiClient';
import { usePortal } from '../../core/PortalContext';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { requestedDestination } from '../../domain/returnTo';
import { ACCOUNT_DELETED_PARAM, LEFT_CLUB_PARAM, SSO_UNAVAILABLE_PARAM } from '../../domain/loginNotices';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { localized } from '../../ui/localized';
import { MagicLinkForm } from './MagicLinkForm';
import { PasswordLoginForm } from './PasswordLoginForm';
import { loginErrorText } from './loginErrors';
import { useCompleteLogin } from './useCompleteLogin';
import { expireKickerCookie, readKickerSsoId } from './kickerCookie';

/*
 * The forms a visitor asks for (forgot password, register, the reset and confirmation links'
 * forms) and the dev sign-in of `portal dev` load when shown, in one file
 * (cli/build/engineBuild.ts): the page's first paint needs only the sign-in methods (portal-core.md
 * §2 "Login").
 */
const ForgotPasswordForm = lazy(() =>
  import('./ForgotPasswordForm').then((module) => ({ default: module.ForgotPasswordForm })),
);
const RegistrationForm = lazy(() =>
  import('./RegistrationForm').then((module) => ({ default: module.RegistrationForm })),
);
const ResetPasswordForm = lazy(() =>
  import('./ResetPasswordForm').then((module) => ({ default: module.ResetPasswordForm })),
);
const ConfirmRegistrationForm = lazy(() =>
  import('./ConfirmRegistrationForm').then((module) => ({ default: module.ConfirmRegistrationForm })),
);
const DevLoginForm = lazy(() =>
  import('./DevLoginForm').then((module) => ({ default: module.DevLoginForm })),
);

/**
 * A login that arrives in the URL and is spent once: `p` (login link, §2 "token login") and `code`
 * (the OpenID provider's answer, POST /login/oauth with the query passed through). The
 * registration's `confirm` link asks for the password first (ConfirmRegistrationForm).
 */
function useLinkLogin(): { pending: boolean; error?: string } {
  const { api, config } = usePortal();
  const { t } = useTranslation();
  const location = useLocation();
  const completeLogin = useCompleteLogin();
  const navigate = useNavigate();
  const auth = useAtomValue(authStateAtom);
  const query = new URLSearchParams(location.search);
  const kickerCookie = config.tenant.login.kickerAuth?.cookieName ?? 'kickeruser';
  const kickerSsoId = useRef(
    isFeatureOn(config.tenant, 'kicker-auth') && !query.get('reset')
      ? readKickerSsoId(kickerCookie)
      : undefined,
  );
  const call: (() => Promise<LoginResponse>) | undefined = query.get('p')
    ? () => api.post('/login/token', { token: query.get('p') })
    : query.get('code')
      ? () => api.post(`/login/oauth${location.search}`)
      : kickerSsoId.current && !query.get('confirm')
        ? () => api.post('/kicker-auth/get-user', { ssoId: kickerSsoId.current })
        : undefined;
  const [error, setError] = useState<string>();
  const started = useRef(false);
  useEffect(() => {
    if (!call || started.current) return;
    started.current = true; // StrictMode runs effects twice; these tokens are single-use.
    call().then(completeLogin, (failure) => {
      // A login link spent already, opened again in a tab that is signed in (an embedding page
      // reloaded at its `?p=` address): the visitor goes on as a signed-in visitor of /login does
      // (§2 "Login"), not to "this link is invalid". Only that answer: a limit, a failed server or
      // connection is said as ever.
      if (
        query.get('p') &&
        isLoggedIn(auth) &&
        failure instanceof ApiError &&
        failure.code === 'invalid_token'
      ) {
        query.delete('p');
        const rest = query.toString();
        return navigate(`${location.pathname}${rest ? `?${rest}` : ''}`, { replace: true });
      }
      // A stale SSO cookie is not the visitor's mistake: drop it and show the forms.
      if (kickerSsoId.current && !query.get('p') && !query.get('code'))
        expireKickerCookie(kickerCookie, config.basePath);
      setError(loginErrorText(failure, t));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once: the tokens in the address are single-use
  }, []);
  return { pending: Boolean(call) && !error, error };
}

/** /login (portal-core.md §2 "Login"): every sign-in method the tenant switches on. */
export default function LoginScreen() {
  const { config } = usePortal();
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const auth = useAtomValue(authStateAtom);
  const query = new URLSearchParams(location.search);
  const { pending, error } = useLinkLogin();
  const [view, setView] = useState<'login' | 'forgot' | 'register'>(query.get('forgot') ? 'forgot' : 'login');
  const { tenant } = config;
  const resetToken = query.get('reset');
  const confirmToken = query.get('confirm');
  // Left by its way back or by a link that confirms nothing any more: the sign-in methods, and why.
  const [confirmLeft, setConfirmLeft] = useState<{ message?: string }>();

  // A login link being redeemed: the page's stand-in h1 says so (axe page-has-heading-one).
  if (pending) return <Loading fillsPage pageHeading />;
  // §2: the page this sign-in leads to travels with every method that leaves this screen: in the
  // OAuth state (/sso/authorize keeps it) and in the mailed login link (the server checks it too).
  const destination = requestedDestination(location.search);
  const offersSso = Boolean(tenant.login.oauth) && isFeatureOn(tenant, 'oauth');
  // Kicker-auth tenants keep their accounts with the publisher's sign-on (§7 kicker-auth calls).
  const kicker = isFeatureOn(tenant, 'kicker-auth');

  const showsMethods = !resetToken && !(confirmToken && !confirmLeft) && view === 'login';

  return (
    <section className="login" aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      {auth.sessionHasTimedOut && <Alert variant="warning">{t('shell.sessionExpired')}</Alert>}
      {query.get(ACCOUNT_DELETED_PARAM) && <Alert variant="success">{t('login.accountDeleted')}</Alert>}
      {query.get(LEFT_CLUB_PARAM) && <Alert variant="success">{t('login.leftClub')}</Alert>}
      {/* The link mailed to a new address, opened without a session: the sign-in hands its token
          back to the account details page, which confirms the address (SsoProfileScreen). */}
      {query.get('emailToken') && <Alert variant="info">{t('login.signInToConfirmEmail')}</Alert>}
      {/* The SSO button's way to the provider failed (server/auth/oauthRoutes.ts), or the provider
          sent the visitor back with an error of its own (RFC 6749 §4.1.2.1: refused, cancelled). */}
      {query.get(SSO_UNAVAILABLE_PARAM) && <Alert variant="error">{t('login.ssoUnavailable')}</Alert>}
      {query.get('error') && query.get('state') && !query.get('code') && (
        <Alert variant="error">{t('login.ssoFailed')}</Alert>
      )}
      {error && <Alert variant="error">{error}</Alert>}
      {confirmLeft?.message && <Alert variant="error">{confirmLeft.message}</Alert>}
      {/* It introduces the sign-in methods, so the forgot, register and reset forms go without it. */}
      {!tenant.embedding.isEmbedded && tenant.login.standaloneLoginMessage && showsMethods && (
        <div
          className="standalone-login-message"
          dangerouslySetInnerHTML={{ __html: localized(tenant.login.standaloneLoginMessage, i18n.language) }}
        />
      )}
      <Suspense fallback={<Loading />}>
        {resetToken ? (
          <ResetPasswordForm token={resetToken} />
        ) : confirmToken && !confirmLeft ? (
          <ConfirmRegistrationForm token={confirmToken} onLeave={(message) => setConfirmLeft({ message })} />
        ) : view === 'forgot' ? (
          <ForgotPasswordForm
            onCancel={() => setView('login')}
            endpoint={kicker ? '/kicker-auth/forgotpw' : undefined}
          />
        ) : view === 'register' ? (
          <RegistrationForm
            onCancel={() => setView('login')}
            endpoint={kicker ? '/kicker-auth/register' : undefined}
          />
        ) : (
          <div className="login-methods">
            {offersSso && (
              <a
                className="button sso-button"
                href={`${config.basePath}sso/authorize${destination ? `?returnTo=${encodeURIComponent(destination)}` : ''}`}
              >
                {t('login.ssoButton')}
              </a>
            )}
            {kicker && (
              <PasswordLoginForm
                onForgot={() => setView('forgot')}
                onRegister={() => setView('register')}
                endpoint="/kicker-auth/login"
                titleKey="login.kickerTitle"
              />
            )}
            {tenant.login.password && !kicker && (
              <PasswordLoginForm onForgot={() => setView('forgot')} onRegister={() => setView('register')} />
            )}
            {tenant.login.magicLink && <MagicLinkForm returnTo={destination} />}
            {config.devMode && (
              <Suspense fallback={null}>
                <DevLoginForm />
              </Suspense>
            )}
          </div>
        )}
      </Suspense>
    </section>
  );
}
