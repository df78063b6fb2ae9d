import { useTranslation } from '../../core/translation';
import { CONTACT_LIMITS } from '../../domain/contactRules';
import { CheckboxField, TextAreaField } from '../../ui/fields';
import { ContactDetailsFields, SubscriptionSelect } from './ContactDetailsFields';
import { ContactOutcomeDialog, ContactUpload } from './ContactFormParts';
import { useContactForm, type ContactFormProps } from './useContactForm';

/**
 * The authenticated or anonymous contact form of portal-core.md §5 for one activity: every field
 * rule checked here with engine/domain/contactRules.ts (the server checks the same), the upload,
 * the opt-in checkbox, then POST /contact and a success or error dialog (§4, §8). Its state and
 * calls are useContactForm's.
 */
export function ContactForm(props: ContactFormProps) {
  const { activity, tenant, loggedIn } = props;
  const { t } = useTranslation();
  const contact = useContactForm(props);
  const { form, upload, errorOf, outcome, busy } = contact;
  const { values } = form;
  const set = form.input;

  return (
    <form ref={contact.formRef} className="contact-form" onSubmit={contact.submit} noValidate>
      {contact.subscriptionShown && (
        <SubscriptionSelect
          required={Boolean(activity.requiresSubscription)}
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
          missingOrderNumber={contact.missingOrderNumber}
          onMissingOrderNumber={contact.setMissingOrderNumber}
        />
      )}
      {contact.messageShown && (
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
        <ContactUpload
          fileInput={upload.fileInput}
          error={errorOf('/image')}
          onFile={(list) => void upload.onFile(list)}
        />
      )}
      {contact.optInShown && (
        <CheckboxField label={t('contact.optIn')} checked={contact.optIn} onChange={contact.setOptIn} />
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy || upload.readingFile}>
          {busy ? t('contact.sending') : t('contact.submit')}
        </button>
      </div>
      {outcome && (
        <ContactOutcomeDialog
          outcome={outcome}
          onSuccessClose={contact.reset}
          onErrorClose={contact.closeError}
        />
      )}
    </form>
  );
}
