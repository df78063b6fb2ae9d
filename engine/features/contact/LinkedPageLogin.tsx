import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import { linkedPageLoginErrors } from '../../domain/contactRules';
import { ORDER_NUMBER_MAX_LENGTH, textLength, ZIP_CODE_MAX_LENGTH } from '../../domain/fieldRules';
import { tooManyText } from '../../core/tooManyText';
import { isRateLimited } from '../../domain/retryAfter';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { contactErrorKey, linkResultOf, type LinkResult } from './contactErrors';

/**
 * The linked-page flow of portal-core.md §4: an activity with a linked page first needs an order
 * number and zip code login (POST /login/contact-form); the visitor may instead choose to compose
 * a message. Order number and zip code are no proof of identity, so the server mails a
 * sign-in link to the address on record and answers confirm_email with that address masked; the
 * link signs in and opens the linked page with returnTo=contact. The spec's e-mail field for a
 * subscription not yet linked (email_required) is gone: a typed address proves nothing.
 */
export function LinkedPageLogin({ activity, onCompose }: { activity: string; onCompose: () => void }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [orderNumber, setOrderNumber] = useState('');
  const [zipcode, setZipcode] = useState('');
  // Problems and answers as they came, worded at each render: a language switch words them anew.
  const [problems, setProblems] = useState<ReturnType<typeof linkedPageLoginErrors>>([]);
  const [result, setResult] = useState<LinkResult | 'generic' | { tooMany: unknown } | undefined>();
  const [busy, setBusy] = useState(false);
  const fieldErrors: Record<string, string> = {};
  for (const error of problems) {
    fieldErrors[error.field] =
      error.code === 'too_long'
        ? t('shell.tooLong', { max: ZIP_CODE_MAX_LENGTH, count: textLength(zipcode.trim()) })
        : error.field === '/orderNumber' && error.code === 'invalid'
          ? t('contact.invalidOrderNumber')
          : t('contact.required');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = linkedPageLoginErrors({ orderNumber, zipcode });
    setProblems(found);
    // The last answer goes with the details it was for: none stands beside a new field error.
    setResult(undefined);
    if (found.length > 0) return;
    setBusy(true);
    try {
      // The server answers with a link result only (confirm_email when the sign-in link went out).
      await api.post('/login/contact-form', {
        orderNumber: orderNumber.trim(),
        zipcode: zipcode.trim(),
        activity,
      });
      setResult('generic');
    } catch (error) {
      // A 429 says when to try again, in the screen's language.
      setResult(isRateLimited(error) ? { tooMany: error } : (linkResultOf(error) ?? 'generic'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="contact-linked-page" onSubmit={submit} noValidate>
      <p>{t('contact.linkedPageIntro')}</p>
      <InputField
        label={t('contact.orderNumber')}
        required
        inputMode="numeric"
        autoComplete="off"
        maxChars={ORDER_NUMBER_MAX_LENGTH}
        value={orderNumber}
        onChange={(e) => setOrderNumber(e.target.value.replace(/\D/g, ''))}
        error={fieldErrors['/orderNumber']}
      />
      <InputField
        label={t('contact.zipcode')}
        required
        autoComplete="postal-code"
        maxChars={ZIP_CODE_MAX_LENGTH}
        value={zipcode}
        onChange={(e) => setZipcode(e.target.value)}
        error={fieldErrors['/zipcode']}
      />
      {result && (
        <Alert
          variant={
            result !== 'generic' && 'status' in result && result.status === 'confirm_email'
              ? 'success'
              : 'error'
          }
        >
          <p>
            {result === 'generic'
              ? t('shell.genericError')
              : 'tooMany' in result
                ? tooManyText(t, result.tooMany)
                : t(contactErrorKey(result), { maskedEmail: result.maskedEmail ?? '' })}
          </p>
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
