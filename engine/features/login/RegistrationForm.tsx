import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { ACCOUNT_NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, textLength } from '../../domain/fieldRules';
import { newPasswordErrors } from './passwordErrors';
import { refusalOf } from './refusalText';
import { signInAddressError } from './loginErrors';
import { portalLocale } from '../../domain/language';
import { useFocusFirstError } from '../../ui/focusFirstError';

type Field = 'displayName' | 'firstName' | 'lastName' | 'email' | 'password' | 'passwordConfirm';

/**
 * Create account (§2 "Login", §5: display name, e-mail, password and confirmation required; first
 * and last name optional). The account exists once the e-mailed link is opened.
 */
export function RegistrationForm({
  onCancel,
  endpoint = '/register',
}: {
  onCancel: () => void;
  endpoint?: string;
}) {
  const { api } = usePortal();
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<Record<Field, string>>({
    displayName: '',
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    passwordConfirm: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string>();
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const { ref, refused } = useFocusFirstError();
  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues({ ...values, [field]: event.target.value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const email = values.email.trim();
    // Too long is said, never cut: the server refuses the same lengths.
    const tooLong = (field: 'displayName' | 'firstName' | 'lastName') =>
      textLength(values[field].trim()) > ACCOUNT_NAME_MAX_LENGTH
        ? t('shell.tooLong', { max: ACCOUNT_NAME_MAX_LENGTH, count: textLength(values[field].trim()) })
        : undefined;
    const found: Partial<Record<Field, string>> = {
      displayName: values.displayName.trim() ? tooLong('displayName') : t('login.displayNameRequired'),
      firstName: tooLong('firstName'),
      lastName: tooLong('lastName'),
      email: signInAddressError(email, t),
      ...newPasswordErrors(values.password, values.passwordConfirm, t),
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      refused();
      return;
    }
    setState('sending');
    setFailure(undefined);
    try {
      await api.post(endpoint, {
        displayName: values.displayName.trim(),
        firstName: values.firstName.trim() || undefined,
        lastName: values.lastName.trim() || undefined,
        email,
        password: values.password,
        passwordConfirm: values.passwordConfirm,
        locale: portalLocale(i18n.language),
      });
      setState('sent');
    } catch (error) {
      // §8: the server's reason, at the field it names or over the form (./refusalText.ts).
      const refusal = refusalOf(error, t, i18n.language);
      setErrors(refusal.fields);
      setFailure(refusal.message);
      setState('idle');
      refused();
    }
  }

  if (state === 'sent') {
    return (
      <Alert variant="success">
        <h2 data-page-section>{t('login.registrationSentTitle')}</h2>
        <p>{t('login.registrationSent', { email: values.email.trim() })}</p>
      </Alert>
    );
  }
  return (
    <form ref={ref} className="card login-form" onSubmit={submit} noValidate aria-labelledby="register-title">
      <h2 id="register-title" data-page-section>
        {t('login.createAccountTitle')}
      </h2>
      <p className="muted">{t('login.requiredHint')}</p>
      {failure && <Alert variant="error">{failure}</Alert>}
      <InputField
        label={t('login.displayNameLabel')}
        name="displayName"
        autoComplete="nickname"
        required
        value={values.displayName}
        error={errors.displayName}
        onChange={set('displayName')}
        maxChars={ACCOUNT_NAME_MAX_LENGTH}
      />
      <InputField
        label={t('login.firstNameLabel')}
        name="firstName"
        autoComplete="given-name"
        value={values.firstName}
        error={errors.firstName}
        onChange={set('firstName')}
        maxChars={ACCOUNT_NAME_MAX_LENGTH}
      />
      <InputField
        label={t('login.lastNameLabel')}
        name="lastName"
        autoComplete="family-name"
        value={values.lastName}
        error={errors.lastName}
        onChange={set('lastName')}
        maxChars={ACCOUNT_NAME_MAX_LENGTH}
      />
      <InputField
        label={t('login.emailLabel')}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={values.email}
        error={errors.email}
        onChange={set('email')}
      />
      <InputField
        label={t('login.passwordLabel')}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        value={values.password}
        error={errors.password}
        onChange={set('password')}
        maxChars={PASSWORD_MAX_LENGTH}
      />
      <p className="muted field-hint">{t('login.passwordRule')}</p>
      <InputField
        label={t('login.passwordConfirmLabel')}
        type="password"
        name="passwordConfirm"
        autoComplete="new-password"
        required
        value={values.passwordConfirm}
        error={errors.passwordConfirm}
        onChange={set('passwordConfirm')}
      />
      <div className="form-actions">
        <button type="submit" className="button" disabled={state === 'sending'}>
          {t('login.createAccountSubmit')}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('login.backToLogin')}
        </button>
      </div>
    </form>
  );
}
