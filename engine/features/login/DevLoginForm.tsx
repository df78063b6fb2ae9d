import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import type { LoginResponse } from '../../core/authState';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { loginErrorText } from './loginErrors';
import { useCompleteLogin } from './useCompleteLogin';

/** §2 "Login": in the test environment, sign in by e-mail with an optional SSO id (portal dev only). */
export function DevLoginForm() {
  const { api } = usePortal();
  const { t } = useTranslation();
  const completeLogin = useCompleteLogin();
  const [email, setEmail] = useState('');
  const [ssoId, setSsoId] = useState('');
  const [failure, setFailure] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      completeLogin(
        await api.post<LoginResponse>('/login/dev', {
          email: email.trim(),
          ssoId: ssoId.trim() || undefined,
        }),
      );
    } catch (error) {
      setFailure(loginErrorText(error, t));
    }
  }

  return (
    <form
      className="card login-form dev-login"
      onSubmit={submit}
      noValidate
      aria-labelledby="dev-login-title"
    >
      <h2 id="dev-login-title">{t('login.devTitle')}</h2>
      {failure && <Alert variant="error">{failure}</Alert>}
      <InputField
        label={t('login.emailLabel')}
        type="email"
        name="dev-email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <InputField
        label={t('login.ssoIdLabel')}
        name="dev-sso-id"
        value={ssoId}
        onChange={(e) => setSsoId(e.target.value)}
      />
      <button type="submit" className="button button-secondary">
        {t('login.devSubmit')}
      </button>
    </form>
  );
}
