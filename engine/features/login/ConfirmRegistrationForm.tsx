import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import type { LoginResponse } from '../../core/authState';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { PASSWORD_MAX_LENGTH } from '../../domain/fieldRules';
import { loginErrorText } from './loginErrors';
import { useCompleteLogin } from './useCompleteLogin';

/**
 * The registration's confirmation link (`/login?confirm=…`) lands here: the password chosen at
 * registration creates the account and signs in. The link alone proves the address, not that its
 * owner registered (server/auth/commands/registration.ts).
 */
export function ConfirmRegistrationForm({ token }: { token: string }) {
  const { api } = usePortal();
  const { t } = useTranslation();
  const completeLogin = useCompleteLogin();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError(t('login.passwordRequired'));
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      completeLogin(await api.post<LoginResponse>('/register/confirm', { token, password }));
    } catch (caught) {
      setFailure(loginErrorText(caught, t));
      setBusy(false);
    }
  }

  return (
    <form className="card login-form" onSubmit={submit} noValidate aria-labelledby="confirm-title">
      <h2 id="confirm-title">{t('login.confirmTitle')}</h2>
      <p>{t('login.confirmIntro')}</p>
      {failure && <Alert variant="error">{failure}</Alert>}
      <InputField
        label={t('login.passwordLabel')}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        error={error}
        onChange={(e) => setPassword(e.target.value)}
        maxChars={PASSWORD_MAX_LENGTH}
      />
      <button type="submit" className="button" disabled={busy}>
        {t('login.confirmButton')}
      </button>
    </form>
  );
}
