import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { FORGOT_PASSWORD_EMAIL_MAX_LENGTH } from '../../domain/fieldRules';
import { refusalOf } from './refusalText';
import { signInAddressError } from './loginErrors';
import { portalLocale } from '../../domain/language';

/** Forgot password (§5: e-mail required, trimmed, at most 50 characters): a reset link by e-mail. */
export function ForgotPasswordForm({
  onCancel,
  endpoint = '/password/forgot',
}: {
  onCancel: () => void;
  endpoint?: string;
}) {
  const { api } = usePortal();
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (!value) return setFieldError(t('login.emailRequired'));
    if (value.length > FORGOT_PASSWORD_EMAIL_MAX_LENGTH)
      return setFieldError(t('login.emailTooLong', { max: FORGOT_PASSWORD_EMAIL_MAX_LENGTH }));
    const problem = signInAddressError(value, t);
    if (problem) return setFieldError(problem);
    setFieldError(undefined);
    setFailure(undefined);
    setState('sending');
    try {
      await api.post(endpoint, { email: value, locale: portalLocale(i18n.language) });
      setState('sent');
    } catch (error) {
      // §8: the server's reason, at the address or over the form (./refusalText.ts).
      const refusal = refusalOf(error, t, i18n.language);
      setFieldError(refusal.fields.email);
      setFailure(refusal.message);
      setState('idle');
    }
  }

  return (
    <section role="dialog" aria-modal="false" aria-labelledby="forgot-title" className="card login-form">
      <h2 id="forgot-title" data-page-section>
        {t('login.forgotTitle')}
      </h2>
      {state === 'sent' ? (
        <Alert variant="success">{t('login.resetSent', { email: email.trim() })}</Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <p>{t('login.forgotIntro')}</p>
          {failure && <Alert variant="error">{failure}</Alert>}
          <InputField
            label={t('login.emailLabel')}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            error={fieldError}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button type="submit" className="button" disabled={state === 'sending'}>
            {t('login.sendResetLink')}
          </button>
        </form>
      )}
      <button type="button" className="link-button" onClick={onCancel}>
        {t('login.backToLogin')}
      </button>
    </section>
  );
}
