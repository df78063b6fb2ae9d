/**
 * The address form's parts (account-flows.md §5): the contact fields (e-mail, phone, birth date,
 * locked where the tenant does not allow them), the timing, the next-issue warning and the
 * confirmation before saving.
 */
import { useTranslation } from '../../core/translation';
import { LockedNote } from '../../account/changes/LockedHint';
import { ADDRESS_LIMITS, earliestBirthDate } from '../../domain/addressRules';
import { addDaysIso } from '../../domain/holidayService';
import { formatDate } from '../../domain/dates';
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { InputField, RadioGroup } from '../../ui/fields';
import type { AddressChangeModel, ContactField } from './useAddressChangeForm';

type Model = { form: AddressChangeModel };

/** E-mail, phone and birth date: editable only as the tenant allows, else locked with the pointer to the contact form. */
export function ContactFields({ form }: Model) {
  const { t } = useTranslation();
  const { values, onRecord, required, sending, errors, change, access, today } = form;
  // A length the order system's own value breaks is not the subscriber's to mend (addressRules.ts
  // onRecord): the count shows once the field differs from the record.
  const limit = (field: ContactField, max: number) =>
    (values[field] ?? '').trim() === (onRecord[field] ?? '').trim() ? undefined : max;
  const contact = (field: ContactField, editable: boolean) => ({
    label: t(`account.address.${field}`),
    value: values[field],
    required: required.has(field),
    disabled: !editable || sending,
    hint: editable ? undefined : <LockedNote />,
    error: errors[field],
    onChange: (event: { target: { value: string } }) => change(field, event.target.value),
  });
  return (
    <fieldset className="address-fields">
      <legend>{t('address-change.contactLegend')}</legend>
      <InputField
        {...contact('emailAddress', access.email)}
        type="email"
        autoComplete="email"
        maxChars={limit('emailAddress', ADDRESS_LIMITS.email)}
      />
      <InputField
        {...contact('phoneNumber', access.phone)}
        type="tel"
        autoComplete="tel"
        maxChars={limit('phoneNumber', ADDRESS_LIMITS.phone)}
      />
      <InputField
        {...contact('dateOfBirth', access.dateOfBirth)}
        type="date"
        autoComplete="bday"
        min={earliestBirthDate(today)}
        max={today}
        className="field-narrow"
      />
    </fieldset>
  );
}

/** "As soon as possible" or "from a date" (tomorrow at the earliest, the term's end at the latest). */
export function AddressTiming({ form }: Model) {
  const { t } = useTranslation();
  const { timing, setTiming, sending, today, termEnd, validFrom, chooseValidFrom, errors } = form;
  return (
    <RadioGroup
      className="address-timing"
      legend={t('address-change.timing.legend')}
      name="address-timing"
      options={[
        { value: 'asap', label: t('address-change.timing.asap') },
        { value: 'date', label: t('address-change.timing.date') },
      ]}
      value={timing}
      onChange={setTiming}
    >
      <InputField
        type="date"
        label={t('address-change.timing.validFrom')}
        required={timing === 'date'}
        disabled={timing !== 'date' || sending}
        min={addDaysIso(today, 1)}
        max={termEnd ?? undefined}
        value={validFrom}
        onChange={(event) => chooseValidFrom(event.target.value)}
        error={timing === 'date' ? errors.validFrom : undefined}
        className="field-narrow"
      />
    </RadioGroup>
  );
}

/** An immediate change misses the next issue, which is already shipping. */
export function NextIssueWarning({ partner }: { partner: SubscriptionPartner }) {
  const { t } = useTranslation();
  return (
    <Alert variant="warning">
      <p>
        {partner.nextPhysicalIssue?.issueNumber
          ? t('address-change.nextIssueWarning', { issueNumber: partner.nextPhysicalIssue.issueNumber })
          : t('address-change.nextIssueWarningPlain')}
      </p>
    </Alert>
  );
}

/** Saving is confirmed first: from when the change applies, and the next-issue warning again. */
export function ConfirmAddressDialog({ form }: Model) {
  const { t, i18n } = useTranslation();
  const { setConfirming, sending, save, chosenDate, missesNextIssue } = form;
  return (
    <Dialog
      title={t('address-change.confirmTitle')}
      onClose={() => setConfirming(false)}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
            {t('account.flow.back')}
          </button>
          <button type="button" className="button" disabled={sending} onClick={() => void save()}>
            {t('address-change.confirmYes')}
          </button>
        </>
      }
    >
      <p>
        {chosenDate
          ? t('address-change.confirmFrom', { date: formatDate(chosenDate, i18n.language) })
          : t('address-change.confirmAsap')}
      </p>
      {missesNextIssue && <p>{t('address-change.nextIssueWarningPlain')}</p>}
    </Dialog>
  );
}
