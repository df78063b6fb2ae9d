import { dataOf, useResource } from '../../account/resource';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../core/translation';
import type { ContactActivity } from '../../../schemas/generated/tenant';
import { usePortal } from '../../core/PortalContext';
import { useSubscriptions } from '../../core/subscriptionsStore';
import {
  CONTACT_LIMITS,
  contactFieldErrors,
  DEFAULT_SALUTATIONS,
  isCompanySalutation,
  showsMessage,
  showsOptIn,
  UPLOAD_ACCEPT,
  CONTACT_SUBJECTS,
  type ContactInput,
  type ContactSubject,
} from '../../domain/contactRules';
import { tooManyText } from '../../core/tooManyText';
import { isRateLimited } from '../../domain/retryAfter';
import { ORDER_NUMBER_MAX_LENGTH } from '../../domain/fieldRules';
import { Dialog } from '../../ui/Dialog';
import { InputField, CheckboxField, SelectField, TextAreaField } from '../../ui/fields';
import { localized } from '../../ui/localized';
import { useFormState } from '../../ui/formState';
import { contactErrorKey, fieldErrorsOf, linkResultOf } from './contactErrors';
import type { ContactTenant } from './ContactScreen';
import { pickFile, type PickedFile } from './upload';
import { portalLocale } from '../../domain/language';

const DEFAULT_SALUTATION_KEYS: Record<string, string> = {
  '0001': 'contact.salutationMs',
  '0002': 'contact.salutationMr',
  '0003': 'contact.salutationCompany',
};

interface ContactValues {
  subscriptionId: string;
  salutation: string;
  company: string;
  firstName: string;
  lastName: string;
  email: string;
  publication: string;
  orderNumber: string;
  relatedTo: string;
  message: string;
}

type Outcome =
  { kind: 'success' } | { kind: 'error'; messageKey: string; maskedEmail?: string; text?: string };

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
  const [outcome, setOutcome] = useState<Outcome>();
  const set = form.input;

  const messageShown = showsMessage(activity, showMessageInput);
  const optInShown = showsOptIn(tenant, activity);
  const salutations =
    tenant.salutations?.options ?? DEFAULT_SALUTATIONS.map((s) => ({ ...s, title: undefined }));
  const companyRequired = isCompanySalutation(tenant, values.salutation);

  function errorText(code: string | undefined, field: string): string | undefined {
    if (!code) return undefined;
    if (code === 'required') return t('contact.required');
    if (code === 'too_long' && field in CONTACT_LIMITS)
      return t('shell.tooLong', {
        max: CONTACT_LIMITS[field as keyof typeof CONTACT_LIMITS],
        count: lengthOf(field),
      });
    if (code === 'file_too_large') return t('contact.fileTooLarge');
    if (code === 'file_type') return t('contact.fileType');
    if (code === 'not_allowed') return t('contact.notAllowed');
    if (field === '/orderNumber') return t('contact.invalidOrderNumber');
    if (field === '/contactDetails/email') return t('contact.invalidEmail');
    return t('contact.invalid');
  }
  const errorOf = (field: string) => errorText(errors[field], field);
  function lengthOf(field: string): number {
    if (field === '/message') return values.message.length;
    return (
      values[field.slice('/contactDetails/'.length) as 'firstName' | 'lastName' | 'company' | 'email'] ?? ''
    ).length;
  }

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

  function input(): ContactInput & { locale: string } {
    const base: ContactInput & { locale: string } = {
      activity: activity.activity,
      locale: portalLocale(i18n.language),
      ...(messageShown ? { message: values.message } : {}),
      ...(showMessageInput ? { showMessageInput: true } : {}),
      ...(optInShown ? { optIn } : {}),
    };
    if (loggedIn)
      return {
        ...base,
        ...(activity.requiresSubscription && values.subscriptionId
          ? { subscriptionId: values.subscriptionId }
          : {}),
      };
    const details = {
      salutation: values.salutation,
      firstName: values.firstName,
      lastName: values.lastName,
      email: values.email,
    };
    return {
      ...base,
      contactDetails: companyRequired ? { ...details, company: values.company } : details,
      ...(values.publication ? { publication: values.publication } : {}),
      ...(values.relatedTo ? { relatedTo: values.relatedTo as ContactSubject } : {}),
      ...(missingOrderNumber && activity.allowMissingOrderNumber
        ? { missingOrderNumber: true }
        : { orderNumber: values.orderNumber }),
    };
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
        <>
          <SelectField
            label={t('contact.salutation')}
            required={Boolean(tenant.contactForm?.requireSalutation)}
            value={values.salutation}
            onChange={set('salutation')}
            error={errorOf('/contactDetails/salutation')}
          >
            <option value="">{t('contact.salutationPlaceholder')}</option>
            {salutations.map((s) => (
              <option key={s.code} value={s.code}>
                {s.title ? localized(s.title, i18n.language) : t(DEFAULT_SALUTATION_KEYS[s.code] ?? s.code)}
              </option>
            ))}
          </SelectField>
          {companyRequired && (
            <InputField
              label={t('contact.company')}
              required
              maxChars={CONTACT_LIMITS['/contactDetails/company']}
              autoComplete="organization"
              value={values.company}
              onChange={set('company')}
              error={errorOf('/contactDetails/company')}
            />
          )}
          <InputField
            label={t('contact.firstName')}
            required
            maxChars={CONTACT_LIMITS['/contactDetails/firstName']}
            autoComplete="given-name"
            value={values.firstName}
            onChange={set('firstName')}
            error={errorOf('/contactDetails/firstName')}
          />
          <InputField
            label={t('contact.lastName')}
            required
            maxChars={CONTACT_LIMITS['/contactDetails/lastName']}
            autoComplete="family-name"
            value={values.lastName}
            onChange={set('lastName')}
            error={errorOf('/contactDetails/lastName')}
          />
          <InputField
            label={t('contact.email')}
            required
            type="email"
            maxChars={CONTACT_LIMITS['/contactDetails/email']}
            autoComplete="email"
            value={values.email}
            onChange={set('email')}
            error={errorOf('/contactDetails/email')}
          />
          {(tenant.contactForm?.requirePublication || activity.requiresSubscription) && (
            <PublicationSelect
              required={Boolean(tenant.contactForm?.requirePublication)}
              value={values.publication}
              onChange={set('publication')}
              error={errorOf('/publication')}
            />
          )}
          {!(missingOrderNumber && activity.allowMissingOrderNumber) && (
            <InputField
              label={t('contact.orderNumber')}
              required
              inputMode="numeric"
              maxChars={ORDER_NUMBER_MAX_LENGTH}
              value={values.orderNumber}
              onChange={(e) => form.set('orderNumber', e.target.value.replace(/\D/g, ''))}
              error={errorOf('/orderNumber')}
            />
          )}
          {/* §9 "Contact subjects": what the message is about; the server picks one from the activity when left open. */}
          <SelectField label={t('contact.relatedTo')} value={values.relatedTo} onChange={set('relatedTo')}>
            <option value="">{t('contact.relatedToPlaceholder')}</option>
            {CONTACT_SUBJECTS.map((subject) => (
              <option key={subject} value={subject}>
                {t(`contact.relatedTo.${subject}`)}
              </option>
            ))}
          </SelectField>
          {activity.allowMissingOrderNumber && (
            <CheckboxField
              label={t('contact.missingOrderNumber')}
              checked={missingOrderNumber}
              onChange={setMissingOrderNumber}
            />
          )}
        </>
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
        <div className="form-field">
          <label htmlFor="contact-upload">{t('contact.upload')}</label>
          <input
            id="contact-upload"
            ref={fileInput}
            type="file"
            accept={UPLOAD_ACCEPT}
            aria-describedby="contact-upload-hint"
            aria-invalid={errors['/image'] ? true : undefined}
            onChange={(e) => void onFile(e.target.files)}
          />
          <p id="contact-upload-hint" className="muted">
            {t('contact.uploadHint')}
          </p>
          {errors['/image'] && (
            <p className="form-error" role="alert">
              {errorOf('/image')}
            </p>
          )}
        </div>
      )}
      {optInShown && <CheckboxField label={t('contact.optIn')} checked={optIn} onChange={setOptIn} />}
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy || readingFile}>
          {busy ? t('contact.sending') : t('contact.submit')}
        </button>
      </div>
      {outcome?.kind === 'success' && (
        <Dialog
          title={t('contact.successTitle')}
          variant="success"
          onClose={reset}
          actions={
            <button type="button" className="button" onClick={reset}>
              {t('shell.close')}
            </button>
          }
        >
          <p>{t('contact.successText')}</p>
        </Dialog>
      )}
      {outcome?.kind === 'error' && (
        <Dialog
          title={t('contact.errorTitle')}
          variant="error"
          onClose={() => setOutcome(undefined)}
          actions={
            <button type="button" className="button" onClick={() => setOutcome(undefined)}>
              {t('shell.close')}
            </button>
          }
        >
          <p>{outcome.text ?? t(outcome.messageKey, { maskedEmail: outcome.maskedEmail ?? '' })}</p>
        </Dialog>
      )}
    </form>
  );
}

function SubscriptionSelect({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const { state } = useSubscriptions();
  return (
    <SelectField
      label={t('contact.subscription')}
      required
      value={value}
      onChange={onChange}
      error={error}
      disabled={state.status !== 'ready'}
    >
      <option value="">
        {state.status === 'failed' ? t('contact.subscriptionsError') : t('contact.subscriptionPlaceholder')}
      </option>
      {state.subscriptions.map((s) => (
        <option key={s.id} value={s.id}>
          {t('contact.subscriptionOption', { name: s.displayName, orderNumber: s.orderNumber })}
        </option>
      ))}
    </SelectField>
  );
}

function PublicationSelect({
  required,
  value,
  onChange,
  error,
}: {
  required: boolean;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  // Without the list the field offers no publication; the form still says it is required.
  const publicationList = useResource('contact/publications', (client) =>
    client.get<Array<{ publication: string; description: string }>>('/contact/publications'),
  );
  const publications = dataOf(publicationList.state) ?? [];
  return (
    <SelectField
      label={t('contact.publication')}
      required={required}
      value={value}
      onChange={onChange}
      error={error}
    >
      <option value="">{t('contact.publicationPlaceholder')}</option>
      {publications.map((p) => (
        <option key={p.publication} value={p.publication}>
          {p.description}
        </option>
      ))}
    </SelectField>
  );
}
