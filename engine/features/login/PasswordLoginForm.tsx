import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import type { LoginResponse } from '../../core/authState';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { loginErrorText, signInAddressError } from './loginErrors';
import { useCompleteLogin } from './useCompleteLogin';
import { useFocusFirstError } from '../../ui/focusFirstError';

/**
 * E-mail plus password (§2 "Login", §5: e-mail required and of e-mail type; password required).
 * Kicker-auth tenants post the same form to /kicker-auth/login (§7).
 */
export function PasswordLoginForm({
  onForgot,
  onRegister,
  endpoint = '/login/password',
  titleKey = 'login.passwordTitle',
}: {
  onForgot: () => void;
  onRegister: () => void;
  endpoint?: string;
  titleKey?: string;
}) {
  const { api } = usePortal();
  const { t } = useTranslation();
  const completeLogin = useCompleteLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { ref, refused } = useFocusFirstError();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    const found = {
      email: signInAddressError(value, t),
      password: password ? undefined : t('login.passwordRequired'),
    };
    setErrors(found);
    // The last answer's notice goes with a new try, so it never stands beside a field's own.
    setFailure(undefined);
    if (found.email || found.password) {
      refused();
      return;
    }
    setBusy(true);
    try {
      completeLogin(await api.post<LoginResponse>(endpoint, { email: value, password }));
    } catch (error) {
      setFailure(loginErrorText(error, t));
      setBusy(false);
    }
  }

  return (
    <form
      ref={ref}
      className="card login-form"
      onSubmit={submit}
      noValidate
      aria-labelledby="password-login-title"
    >
      <h2 id="password-login-title">{t(titleKey)}</h2>
      {failure && <Alert variant="error">{failure}</Alert>}
      <InputField
        label={t('login.emailLabel')}
        type="email"
        name="email"
        autoComplete="username"
        required
        value={email}
        error={errors.email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <InputField
        label={t('login.passwordLabel')}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        error={errors.password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? t('login.loggingIn') : t('login.submitPassword')}
        </button>
        <button type="button" className="link-button" onClick={onForgot}>
          {t('login.forgotPassword')}
        </button>
        <button type="button" className="link-button" onClick={onRegister}>
          {t('login.createAccount')}
        </button>
      </div>
    </form>
  );
}
