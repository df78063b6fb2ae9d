import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAtom } from 'jotai';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { authStateAtom, persistLogin, type LoginResponse } from '../../core/authState';
import { pathAfterLogin, type LoginRedirectState } from '../../core/access';
import { usePortal } from '../../core/PortalContext';
import { Alert } from '../../ui/Alert';
import { FormField } from '../../ui/FormField';
import { Loading } from '../../ui/Loading';
import { isPlausibleEmail } from '../../domain/fieldRules';

/**
 * /login (portal-core.md §2 "Login"): token login through the `p` query parameter (the magic
 * link lands here) and the magic-link form. Other methods arrive with the sign-in issue.
 */
export default function LoginScreen() {
  const { config, api } = usePortal();
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [auth, setAuth] = useAtom(authStateAtom);
  const token = new URLSearchParams(location.search).get('p');
  const from = (location.state as LoginRedirectState | null)?.from;
  const [tokenError, setTokenError] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true; // StrictMode runs effects twice; a token is single-use.
    api
      .post<LoginResponse>('/login/token', { token })
      .then((response) => {
        persistLogin(response);
        setAuth({ ...response, sessionHasTimedOut: false });
        void navigate(pathAfterLogin(location.search, from), { replace: true });
      })
      .catch(() => setTokenError(true));
  }, [token]);

  if (token && !tokenError) return <Loading />;

  return (
    <section className="login" aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      {auth.sessionHasTimedOut && <Alert variant="warning">{t('shell.sessionExpired')}</Alert>}
      {tokenError && <Alert variant="error">{t('login.tokenInvalid')}</Alert>}
      {!config.tenant.embedding.isEmbedded && config.tenant.login.standaloneLoginMessage && (
        <div className="standalone-login-message" dangerouslySetInnerHTML={{ __html: config.tenant.login.standaloneLoginMessage }} />
      )}
      {config.tenant.login.magicLink && <MagicLinkForm />}
    </section>
  );
}

function MagicLinkForm() {
  const { api } = usePortal();
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (!value) return setFieldError(t('login.emailRequired'));
    if (!isPlausibleEmail(value)) return setFieldError(t('login.emailInvalid'));
    setFieldError(undefined);
    setState('sending');
    try {
      await api.post('/login/magic-link', { email: value, locale: i18n.language });
      setState('sent');
    } catch {
      setState('failed');
    }
  }

  if (state === 'sent') {
    return (
      <Alert variant="success">
        <h2>{t('login.linkSentTitle')}</h2>
        <p>{t('login.linkSent', { email: email.trim() })}</p>
      </Alert>
    );
  }
  return (
    <form className="card login-form" onSubmit={submit} noValidate>
      <p>{t('login.intro')}</p>
      {state === 'failed' && <Alert variant="error">{t('login.error')}</Alert>}
      <FormField
        label={t('login.emailLabel')}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        error={fieldError}
        onChange={(event) => setEmail(event.target.value)}
      />
      <button type="submit" className="button" disabled={state === 'sending'}>
        {state === 'sending' ? t('login.sending') : t('login.sendLink')}
      </button>
    </form>
  );
}
