import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { magicLinkErrorText, signInAddressError } from './loginErrors';
import { portalLocale } from '../../domain/language';
import { useFocusFirstError } from '../../ui/focusFirstError';

/**
 * The magic-link form (§2 "Login"): an e-mail; a login link is sent and a confirmation shown. The
 * link leads to `returnTo`, the page the login was asked for (engine/domain/returnTo.ts).
 */
export function MagicLinkForm({ returnTo }: { returnTo?: string }) {
  const { api } = usePortal();
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [failure, setFailure] = useState<string>();
  const { ref, refused } = useFocusFirstError();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    const problem = signInAddressError(value, t);
    // The last answer's notice goes with a new try, so it never stands beside a field's own.
    setFailure(undefined);
    setFieldError(problem);
    if (problem) {
      refused();
      return;
    }
    setState('sending');
    try {
      await api.post('/login/magic-link', {
        email: value,
        locale: portalLocale(i18n.language),
        returnTo,
      });
      setState('sent');
    } catch (error) {
      setFailure(magicLinkErrorText(error, t));
      setState('idle');
    }
  }

  if (state === 'sent') {
    return (
      <Alert variant="success">
        <h2>{t('login.linkSentTitle')}</h2>
        <p>{t('login.linkSent', { email: email.trim() })}</p>
        {/* A mistyped address is mended here, with what was typed still in the field. */}
        <div className="button-row">
          <button type="button" className="button button-secondary" onClick={() => setState('idle')}>
            {t('login.otherAddress')}
          </button>
        </div>
      </Alert>
    );
  }
  return (
    <form
      ref={ref}
      className="card login-form"
      onSubmit={submit}
      noValidate
      aria-labelledby="magic-link-title"
    >
      <h2 id="magic-link-title">{t('login.magicLinkTitle')}</h2>
      <p>{t('login.intro')}</p>
      {failure && <Alert variant="error">{failure}</Alert>}
      <InputField
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
