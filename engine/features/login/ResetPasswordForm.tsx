import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import type { LoginResponse } from '../../core/authState';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { PASSWORD_MAX_LENGTH } from '../../domain/fieldRules';
import { newPasswordErrors } from './passwordErrors';
import { loginErrorText } from './loginErrors';
import { useCompleteLogin } from './useCompleteLogin';
import { useFocusFirstError } from '../../ui/focusFirstError';

/** The reset link (`/login?reset=…`) lands here: a new password twice, then logged in. */
export function ResetPasswordForm({ token }: { token: string }) {
  const { api } = usePortal();
  const { t } = useTranslation();
  const completeLogin = useCompleteLogin();
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; passwordConfirm?: string }>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { ref, refused } = useFocusFirstError();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = newPasswordErrors(password, passwordConfirm, t);
    setErrors(found);
    if (found.password || found.passwordConfirm) {
      refused();
      return;
    }
    setBusy(true);
    try {
      completeLogin(await api.post<LoginResponse>('/password/reset', { token, password, passwordConfirm }));
    } catch (error) {
      setFailure(loginErrorText(error, t));
      setBusy(false);
    }
  }

  return (
    <form ref={ref} className="card login-form" onSubmit={submit} noValidate aria-labelledby="reset-title">
      <h2 id="reset-title" data-page-section>
        {t('login.resetTitle')}
      </h2>
      {failure && <Alert variant="error">{failure}</Alert>}
      <InputField
        label={t('login.newPasswordLabel')}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        value={password}
        error={errors.password}
        onChange={(e) => setPassword(e.target.value)}
        maxChars={PASSWORD_MAX_LENGTH}
      />
      <p className="muted field-hint">{t('login.passwordRule')}</p>
      <InputField
        label={t('login.passwordConfirmLabel')}
        type="password"
        name="passwordConfirm"
        autoComplete="new-password"
        required
        value={passwordConfirm}
        error={errors.passwordConfirm}
        onChange={(e) => setPasswordConfirm(e.target.value)}
      />
      <button type="submit" className="button" disabled={busy}>
        {t('login.saveNewPassword')}
      </button>
    </form>
  );
}
