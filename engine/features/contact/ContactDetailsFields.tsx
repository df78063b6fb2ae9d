import type { ContactActivity } from '../../../schemas/generated/tenant';
import { dataOf, useResource } from '../../account/resource';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { useTranslation } from '../../core/translation';
import {
  CONTACT_LIMITS,
  CONTACT_SUBJECTS,
  DEFAULT_SALUTATIONS,
  isCompanySalutation,
} from '../../domain/contactRules';
import { ORDER_NUMBER_MAX_LENGTH } from '../../domain/fieldRules';
import { CheckboxField, InputField, SelectField } from '../../ui/fields';
import type { FormState } from '../../ui/formState';
import { localized } from '../../ui/localized';
import type { ContactTenant } from './ContactScreen';
import type { ContactValues } from './contactFormState';

const DEFAULT_SALUTATION_KEYS: Record<string, string> = {
  '0001': 'contact.salutationMs',
  '0002': 'contact.salutationMr',
  '0003': 'contact.salutationCompany',
};

/**
 * Who writes, for the anonymous contact form (portal-core.md §5): salutation, the company for a
 * company salutation, names, e-mail, the publication, the order number (or that it is missing,
 * where the activity allows it) and what the message is about.
 */
export function ContactDetailsFields({
  form,
  activity,
  tenant,
  errorOf,
  missingOrderNumber,
  onMissingOrderNumber,
}: {
  form: FormState<ContactValues, string>;
  activity: ContactActivity;
  tenant: ContactTenant;
  errorOf: (field: string) => string | undefined;
  missingOrderNumber: boolean;
  onMissingOrderNumber: (missing: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const { values } = form;
  const set = form.input;
  const salutations =
    tenant.salutations?.options ?? DEFAULT_SALUTATIONS.map((s) => ({ ...s, title: undefined }));
  const companyRequired = isCompanySalutation(tenant, values.salutation);
  return (
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
          onChange={onMissingOrderNumber}
        />
      )}
    </>
  );
}

export function SubscriptionSelect({
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
  const { state } = useSubscriptions();
  return (
    <SelectField
      label={t('contact.subscription')}
      required={required}
      value={value}
      onChange={onChange}
      error={error}
      disabled={state.status !== 'ready'}
    >
      <option value="">
        {state.status === 'failed'
          ? t('contact.subscriptionsError')
          : t(required ? 'contact.subscriptionPlaceholder' : 'contact.subscriptionNone')}
      </option>
      {state.subscriptions.map((s) => (
        <option key={s.id} value={s.id}>
          {t('contact.subscriptionOption', { name: s.displayName, orderNumber: s.orderNumber })}
        </option>
      ))}
    </SelectField>
  );
}

export function PublicationSelect({
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
