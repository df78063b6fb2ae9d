import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useAtomValue } from 'jotai';
import { subscriptionsAtom } from '../../core/subscriptionsStore';
import { useTranslation, type TranslateFn } from '../../core/translation';
import type { ContactActivity } from '../../../schemas/generated/tenant';
import { usePortal } from '../../core/PortalContext';
import { contactFieldErrors, showsMessage, showsOptIn } from '../../domain/contactRules';
import { tooManyText } from '../../core/tooManyText';
import { isRateLimited } from '../../domain/retryAfter';
import { useFocusFirstError } from '../../ui/focusFirstError';
import { useFormState, type FormState } from '../../ui/formState';
import { portalLocale } from '../../domain/language';
import { contactErrorKey, fieldErrorsOf, linkResultOf } from './contactErrors';
import { contactErrorText, contactInput, type ContactValues } from './contactFormState';
import type { ContactOutcome } from './ContactFormParts';
import type { ContactTenant } from './ContactScreen';
import { pickFile, type PickedFile } from './upload';

export interface ContactFormProps {
  activity: ContactActivity;
  tenant: ContactTenant;
  loggedIn: boolean;
  showMessageInput: boolean;
  preselectedSubscription: string;
  /**
   * What the person has typed, kept by the screen: the form starts anew for each topic (its
   * fields, errors and upload follow the topic), the values typed stay.
   */
  typed?: { current: ContactValues | undefined };
}

const BLANK: ContactValues = {
  subscriptionId: '',
  salutation: '',
  company: '',
  firstName: '',
  lastName: '',
  email: '',
  publication: '',
  orderNumber: '',
  relatedTo: '',
  message: '',
};

type Errors = FormState<ContactValues, string>['errors'];

/**
 * The picked image (portal-core.md §5). A picked file is read before it can be sent (a large one
 * takes a moment on a phone): until it is, sending waits, so a message never leaves without the
 * attachment the person chose.
 */
function useContactUpload(errors: Errors, setErrors: (errors: Errors) => void) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<PickedFile>();
  const [readingFile, setReadingFile] = useState(false);
  const lastPick = useRef(0);

  /** No file: the one picked is forgotten and the input emptied. */
  function clearFile() {
    if (fileInput.current) fileInput.current.value = '';
    setFile(undefined);
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
      clearFile();
      setErrors({ ...errors, '/image': picked.error });
      return;
    }
    const { ['/image']: _dropped, ...rest } = errors;
    setErrors(rest);
    setFile(picked.file);
  }

  return { fileInput, file, readingFile, onFile, clearFile };
}

/**
 * The error dialog of a sending the server refused other than at its fields (portal-core.md §4,
 * §8): a 429 says when to try again, in the screen's language; a link's result names why.
 */
function refusalOutcome(t: TranslateFn, error: unknown): ContactOutcome {
  if (isRateLimited(error)) {
    return { kind: 'error', messageKey: 'shell.tooManyAttempts', text: tooManyText(t, error) };
  }
  const result = linkResultOf(error);
  return result
    ? { kind: 'error', messageKey: contactErrorKey(result), maskedEmail: result.maskedEmail }
    : { kind: 'error', messageKey: 'shell.genericError' };
}

/** The first rule each field breaks, by JSON pointer (engine/domain/contactRules.ts, as the server checks). */
function fieldCodesOf(
  tenant: ContactTenant,
  body: ReturnType<typeof contactInput>,
  file: PickedFile | undefined,
  loggedIn: boolean,
): Record<string, string> {
  const found: Record<string, string> = {};
  const image = file && { filename: file.filename, mimeType: file.mimeType, size: file.size };
  for (const error of contactFieldErrors(tenant, { ...body, image }, loggedIn)) {
    found[error.field] ??= error.code;
  }
  return found;
}

/**
 * The contact form's state and calls (portal-core.md §5): its values and the messages at its
 * fields, the upload, the opt-in, the check with engine/domain/contactRules.ts before POST
 * /contact, and the answer's dialog (§4, §8).
 */
export function useContactForm({
  activity,
  tenant,
  loggedIn,
  showMessageInput,
  preselectedSubscription,
  typed,
}: ContactFormProps) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const navigate = useNavigate();
  // The errors are codes by JSON pointer (the server's too), worded at render (errorText).
  const form = useFormState<ContactValues, string>(
    () => typed?.current ?? { ...BLANK, subscriptionId: preselectedSubscription },
  );
  const { values, errors, setErrors } = form;
  useEffect(() => {
    if (typed) typed.current = values;
  }, [typed, values]);
  const [missingOrderNumber, setMissingOrderNumber] = useState(false);
  const [optIn, setOptIn] = useState(false);
  const [busy, setBusy] = useState(false);
  const { ref: formRef, refused } = useFocusFirstError();
  const [outcome, setOutcome] = useState<ContactOutcome>();
  const upload = useContactUpload(errors, setErrors);
  const { file } = upload;

  const messageShown = showsMessage(activity, showMessageInput);
  // Opened for one subscription ("Contact about this subscription", portal-core.md §2 Contact's
  // query subscriptionId), the message is about it whatever the topic; the field says so and may
  // be cleared where the topic needs none.
  const subscriptionShown = loggedIn && (activity.requiresSubscription || Boolean(preselectedSubscription));
  // Where the topic needs none, only one of the account's own (a stale link's id shows as none).
  const listed = useAtomValue(subscriptionsAtom).subscriptions;
  const sendsSubscription =
    subscriptionShown &&
    (Boolean(activity.requiresSubscription) || listed.some((s) => s.id === values.subscriptionId));
  const optInShown = showsOptIn(tenant, activity, loggedIn);
  const errorOf = (field: string) => contactErrorText(t, values, errors[field], field);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (upload.readingFile) return;
    const body = contactInput(values, {
      activity,
      tenant,
      locale: portalLocale(i18n.language),
      loggedIn,
      sendsSubscription,
      messageShown,
      showMessageInput,
      optIn: optInShown ? optIn : undefined,
      missingOrderNumber,
    });
    const found = fieldCodesOf(tenant, body, file, loggedIn);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      refused();
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
        if (fields['/image']) upload.clearFile();
        setOutcome({ kind: 'error', messageKey: 'contact.errorValidationFailed' });
      } else setOutcome(refusalOutcome(t, error));
    } finally {
      setBusy(false);
    }
  }

  /** After the success dialog: a new message, on the contact page without its deep link. */
  function reset() {
    setOutcome(undefined);
    navigate('/contact', { replace: true });
    form.set('message', '');
    upload.clearFile();
  }

  return {
    form,
    upload,
    errorOf,
    subscriptionShown,
    messageShown,
    optInShown,
    optIn,
    setOptIn,
    missingOrderNumber,
    setMissingOrderNumber,
    busy,
    outcome,
    // A refusal of the fields is said in a dialog first; once it closes, the focus goes to the
    // first field it marked (a field behind an open dialog cannot take it).
    closeError: () => {
      if (outcome?.kind === 'error' && Object.keys(errors).length > 0) refused();
      setOutcome(undefined);
    },
    submit,
    formRef,
    reset,
  };
}
