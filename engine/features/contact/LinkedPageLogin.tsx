import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSetAtom } from 'jotai';
import { authStateAtom, type LoginResponse } from '../../core/authState';
import { usePortal } from '../../core/PortalContext';
import { linkedPageLoginErrors } from '../../domain/contactRules';
import { isPlausibleEmail, ORDER_NUMBER_MAX_LENGTH, ZIP_CODE_MAX_LENGTH } from '../../domain/fieldRules';
import { Alert } from '../../ui/Alert';
import { FormField } from '../../ui/FormField';
import { contactErrorKey, linkResultOf, type LinkResult } from './contactErrors';

/**
 * The linked-page flow of portal-core.md §4: an activity with a linked page first needs an order
 * number and zip code login (POST /login/contact-form), then redirects to the linked page with
 * returnTo=contact; the visitor may instead choose to compose a message. A subscription not yet
 * linked to an account asks for an e-mail (email_required).
 */
export function LinkedPageLogin({ activity, linkedPage, onCompose }: { activity: string; linkedPage: string; onCompose: () => void }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const setAuth = useSetAtom(authStateAtom);
  const navigate = useNavigate();
  const [orderNumber, setOrderNumber] = useState('');
  const [zipcode, setZipcode] = useState('');
  const [email, setEmail] = useState('');
  const [askEmail, setAskEmail] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<LinkResult | 'generic' | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const errors: Record<string, string> = {};
    for (const error of linkedPageLoginErrors({ orderNumber, zipcode })) {
      errors[error.field] = error.field === '/orderNumber' && error.code === 'invalid' ? t('contact.invalidOrderNumber') : t('contact.required');
    }
    if (askEmail && !isPlausibleEmail(email.trim())) errors['/email'] = email.trim() ? t('contact.invalidEmail') : t('contact.required');
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    setResult(undefined);
    try {
      const body = { orderNumber: orderNumber.trim(), zipcode: zipcode.trim(), activity, ...(askEmail ? { email: email.trim() } : {}) };
      const login = await api.post<LoginResponse>('/login/contact-form', body);
      setAuth({ user: login.user, accessToken: login.accessToken, loginSource: login.loginSource, sessionHasTimedOut: false });
      const separator = linkedPage.includes('?') ? '&' : '?';
      navigate(`${linkedPage}${separator}returnTo=contact`);
    } catch (error) {
      const linkResult = linkResultOf(error);
      if (linkResult?.status === 'email_required') setAskEmail(true);
      setResult(linkResult ?? 'generic');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="contact-linked-page" onSubmit={submit} noValidate>
      <p>{t('contact.linkedPageIntro')}</p>
      <FormField
        label={t('contact.orderNumber')}
        required
        inputMode="numeric"
        autoComplete="off"
        maxLength={ORDER_NUMBER_MAX_LENGTH}
        value={orderNumber}
        onChange={(e) => setOrderNumber(e.target.value.replace(/\D/g, ''))}
        error={fieldErrors['/orderNumber']}
      />
      <FormField
        label={t('contact.zipcode')}
        required
        autoComplete="postal-code"
        maxLength={ZIP_CODE_MAX_LENGTH}
        value={zipcode}
        onChange={(e) => setZipcode(e.target.value)}
        error={fieldErrors['/zipcode']}
      />
      {askEmail && (
        <FormField label={t('contact.email')} required type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={fieldErrors['/email']} />
      )}
      {result && (
        <Alert variant={result !== 'generic' && result.status === 'email_required' ? 'info' : 'error'}>
          <p>{result === 'generic' ? t('shell.genericError') : t(contactErrorKey(result), { maskedEmail: result.maskedEmail ?? '' })}</p>
        </Alert>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          {t('contact.linkedPageContinue')}
        </button>
        <button type="button" className="button button-secondary" onClick={onCompose}>
          {t('contact.composeInstead')}
        </button>
      </div>
    </form>
  );
}
