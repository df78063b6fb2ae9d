import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../core/translation';
import type { ContactActivity } from '../../../schemas/generated/tenant';
import { usePortal } from '../../core/PortalContext';
import { contactFieldErrors, showsMessage, showsOptIn } from '../../domain/contactRules';
import { tooManyText } from '../../core/tooManyText';
import { isRateLimited } from '../../domain/retryAfter';
import { CheckboxField, TextAreaField } from '../../ui/fields';
import { useFormState } from '../../ui/formState';
import { CONTACT_LIMITS } from '../../domain/contactRules';
import { contactErrorKey, fieldErrorsOf, linkResultOf } from './contactErrors';
import { ContactDetailsFields, SubscriptionSelect } from './ContactDetailsFields';
import { contactErrorText, contactInput, type ContactValues } from './contactFormState';
import { ContactOutcomeDialog, ContactUpload, type ContactOutcome } from './ContactFormParts';
import type { ContactTenant } from './ContactScreen';
import { pickFile, type PickedFile } from './upload';
import { portalLocale } from '../../domain/language';

/**
 * The authenticated or anonymous contact form of portal-core.md §5 for one activity: every field
 * rule checked here with engine/domain/contactRules.ts (the server checks the same), the upload,
 * the opt-in checkbox, then POST /contact and a success or error dialog (§4, §8).
 */
export function ContactForm({
  activity,
  tenant,
  loggedIn,
  showMessageInput,
  preselectedSubscription,
}: {
  activity: ContactActivity;
  tenant: ContactTenant;
  loggedIn: boolean;
  showMessageInput: boolean;
  preselectedSubscription: string;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const navigate = useNavigate();
  const fileInput = useRef<HTMLInputElement>(null);
  // The errors are codes by JSON pointer (the server's too), worded at render (errorText).
  const form = useFormState<ContactValues, string>(() => ({
    subscriptionId: preselectedSubscription,
    salutation: '',
    company: '',
    firstName: '',
    lastName: '',
    email: '',
    publication: '',
    orderNumber: '',
    relatedTo: '',
    message: '',
  }));
  const { values, errors, setErrors } = form;
  const [missingOrderNumber, setMissingOrderNumber] = useState(false);
  const [optIn, setOptIn] = useState(false);
  const [file, setFile] = useState<PickedFile>();
  const [busy, setBusy] = useState(false);
  // A picked file is read before it can be sent (a large one takes a moment on a phone): until it
  // is, sending waits, so a message never leaves without the attachment the person chose.
  const [readingFile, setReadingFile] = useState(false);
  const lastPick = useRef(0);
  const [outcome, setOutcome] = useState<ContactOutcome>();
  const set = form.input;

  const messageShown = showsMessage(activity, showMessageInput);
  const optInShown = showsOptIn(tenant, activity);
  const errorOf = (field: string) => contactErrorText(t, values, errors[field], field);
  const input = () =>
    contactInput(values, {
      activity,
      tenant,
      locale: portalLocale(i18n.language),
      loggedIn,
      messageShown,
      showMessageInput,
      optIn: optInShown ? optIn : undefined,
      missingOrderNumber,
    });

  async function onFile(list: FileList | null) {
    const pick = ++lastPick.current;
    setReadingFile(true);
    // A file the browser cannot read is one the portal cannot accept.
    const picked = await pickFile(list).catch(() => ({ error: 'file_type' as const }));
    // A later choice replaces this one, whichever is read first.
    if (pick !== lastPick.current) return;
    setReadingFile(false);
    if ('error' in picked) {
      // §5: too large shows the message and clears the input.
      if (fileInput.current) fileInput.current.value = '';
      setFile(undefined);
      setErrors({ ...errors, '/image': picked.error });
      return;
    }
    const { ['/image']: _dropped, ...rest } = errors;
    setErrors(rest);
    setFile(picked.file);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (readingFile) return;
    const body = input();
    const found: Record<string, string> = {};
    for (const error of contactFieldErrors(
      tenant,
      { ...body, image: file && { filename: file.filename, mimeType: file.mimeType, size: file.size } },
      loggedIn,
    )) {
      found[error.field] ??= error.code;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      document.querySelector<HTMLElement>('.contact-form [aria-invalid="true"]')?.focus();
      return;
    }
    setBusy(true);
    try {
      await api.post('/contact', {
        ...body,
        ...(file ? { image: { filename: file.filename, mimeType: file.mimeType, data: file.data } } : {}),
      });
      setOutcome({ kind: 'success' });
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length > 0) {
        setErrors(fields);
        if (fields['/image'] && fileInput.current) fileInput.current.value = '';
        if (fields['/image']) setFile(undefined);
        setOutcome({ kind: 'error', messageKey: 'contact.errorValidationFailed' });
      } else if (isRateLimited(error)) {
        // A 429 says when to try again, in the screen's language.
        setOutcome({ kind: 'error', messageKey: 'shell.tooManyAttempts', text: tooManyText(t, error) });
      } else {
        const result = linkResultOf(error);
        setOutcome(
          result
            ? { kind: 'error', messageKey: contactErrorKey(result), maskedEmail: result.maskedEmail }
            : { kind: 'error', messageKey: 'shell.genericError' },
        );
      }
    } finally {
      setBusy(false);
    }
  }

  function reset() {
    setOutcome(undefined);
    navigate('/contact', { replace: true });
    form.set('message', '');
    setFile(undefined);
    if (fileInput.current) fileInput.current.value = '';
  }

  return (
    <form className="contact-form" onSubmit={submit} noValidate>
      {loggedIn && activity.requiresSubscription && (
        <SubscriptionSelect
          value={values.subscriptionId}
          onChange={set('subscriptionId')}
          error={errorOf('/subscriptionId')}
        />
      )}
      {!loggedIn && (
        <ContactDetailsFields
          form={form}
          activity={activity}
          tenant={tenant}
          errorOf={errorOf}
          missingOrderNumber={missingOrderNumber}
          onMissingOrderNumber={setMissingOrderNumber}
        />
      )}
      {messageShown && (
        <TextAreaField
          label={t('contact.message')}
          required
          rows={6}
          maxChars={CONTACT_LIMITS['/message']}
          value={values.message}
          onChange={set('message')}
          error={errorOf('/message')}
        />
      )}
      {activity.supportsImageUpload && (
        <ContactUpload fileInput={fileInput} error={errorOf('/image')} onFile={(list) => void onFile(list)} />
      )}
      {optInShown && <CheckboxField label={t('contact.optIn')} checked={optIn} onChange={setOptIn} />}
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy || readingFile}>
          {busy ? t('contact.sending') : t('contact.submit')}
        </button>
      </div>
      {outcome && (
        <ContactOutcomeDialog
          outcome={outcome}
          onSuccessClose={reset}
          onErrorClose={() => setOutcome(undefined)}
        />
      )}
    </form>
  );
}
