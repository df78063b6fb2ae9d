import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import type { LoginResponse } from '../../core/authState';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { PASSWORD_MAX_LENGTH } from '../../domain/fieldRules';
import { loginErrorKey, loginErrorText } from './loginErrors';
import { useCompleteLogin } from './useCompleteLogin';

/** Failures the form itself answers: another password may still confirm the link. */
const ANSWERED_HERE = new Set(['login.wrongRegistrationPassword', 'login.rateLimited']);

/**
 * The registration's confirmation link (`/login?confirm=…`) lands here: the password chosen at
 * registration creates the account and signs in. The link alone proves the address, not that its
 * owner registered (server/auth/commands/registration.ts). A link that can confirm nothing any more
 * (used, expired, the account made meanwhile) hands back to the sign-in methods with its message
 * (`onLeave`), as does the way back.
 */
export function ConfirmRegistrationForm({
  token,
  onLeave,
}: {
  token: string;
  onLeave: (message?: string) => void;
}) {
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
      if (!ANSWERED_HERE.has(loginErrorKey(caught))) {
        onLeave(loginErrorText(caught, t));
        return;
      }
      setFailure(loginErrorText(caught, t));
      setBusy(false);
    }
  }

  return (
    <form className="card login-form" onSubmit={submit} noValidate aria-labelledby="confirm-title">
      <h2 id="confirm-title" data-page-section>
        {t('login.confirmTitle')}
      </h2>
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
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          {t('login.confirmButton')}
        </button>
        <button type="button" className="link-button" onClick={() => onLeave()}>
          {t('login.backToLogin')}
        </button>
      </div>
    </form>
  );
}
