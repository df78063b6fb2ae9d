import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useNavigate } from 'react-router';
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useTenantSettings } from '../../account/capabilityContext';
import { useAddressRuleContext, useSalutationOptions } from '../../account/changes/addressContext';
import { useAddressErrorTexts } from '../../account/changes/addressErrorTexts';
import { AddressFields } from '../../account/changes/AddressFields';
import { apiFieldCodes } from '../../account/changes/apiFieldErrors';
import { useSupportedCountries } from '../../account/changes/countries';
import { InputField, RadioGroup } from '../../ui/fields';
import { useFocusFirstError } from '../../account/changes/focusFirstError';
import { LockedNote } from '../../account/changes/LockedHint';
import {
  postalAddressOf,
  postalValuesOf,
  type PostalField,
  type PostalValues,
} from '../../account/changes/postalAddress';
import { useUnsavedChangesGuard } from '../../account/changes/useUnsavedChangesGuard';
import { usePortal } from '../../core/PortalContext';
import { href, ROUTES } from '../../domain/routeRefs';
import {
  addressChangeAccess,
  asapMissesNextIssue,
  countryRoleOf,
  requiredAddressFields,
  timingErrors,
  type AddressChangeTiming,
} from '../../domain/addressChange';
import { addDaysIso } from '../../domain/holidayService';
import {
  addressErrors,
  ADDRESS_LIMITS,
  earliestBirthDate,
  type AddressField,
} from '../../domain/addressRules';
import { lastDayOfTerm, withinTerm } from '../../domain/subscriptionTerm';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { formatDate } from '../../domain/dates';
import { addressApi, type SavedChange } from './addressApi';

type ContactField = 'emailAddress' | 'phoneNumber' | 'dateOfBirth';
type Values = PostalValues & Record<ContactField, string>;

const initialValues = (partner: SubscriptionPartner, addressLines: boolean): Values => ({
  ...postalValuesOf(partner.address, addressLines),
  emailAddress: partner.emailAddress ?? '',
  phoneNumber: partner.phoneNumber ?? '',
  dateOfBirth: partner.dateOfBirth ?? '',
});

const trimmedOrNull = (value: string) => value.trim() || null;

/**
 * The address form of account-flows.md §5 for one partner: every rule of
 * engine/domain/addressRules.ts addressErrors (the server checks the same); names and salutation,
 * country, e-mail, phone and birth date editable only as the tenant allows (else shown locked with
 * the pointer to the contact form); address lines or street and number by the tenant's
 * `address-lines` feature; required fields starred; the timing "as soon as possible" or "from a
 * date" (tomorrow at the earliest) where the tenant offers timed changes, with the warning when an
 * immediate change misses the next issue already shipping. Saving is confirmed first; leaving with
 * unsaved changes asks (§2).
 */
/** Codes only the server can know (the tenant's locks, the countries, the account's proven address). */
const SERVER_ONLY_CODES: Record<string, string> = {
  not_editable: 'notEditable',
  not_supported: 'notSupported',
  not_verified: 'notVerified',
};

export function AddressChangeForm({
  subscription: s,
  partner,
  onDone,
}: {
  subscription: Subscription;
  partner: SubscriptionPartner;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const navigate = useNavigate();
  const tenant = useTenantSettings();
  const access = addressChangeAccess(tenant.addressChange);
  const baseContext = useAddressRuleContext(s.publication, Boolean(partner.emailAddress));
  // A dated change may not begin after the subscription's end, as the server checks;
  // when even tomorrow lies after it, no date is offered at all.
  const termEnd = lastDayOfTerm(s);
  const ruleContext = useMemo(() => ({ ...baseContext, termEnd }), [baseContext, termEnd]);
  const timed =
    Boolean(tenant.addressChange.timedChanges) && withinTerm(addDaysIso(baseContext.today, 1), termEnd);
  const initial = useMemo(
    () => initialValues(partner, ruleContext.addressLines),
    [partner, ruleContext.addressLines],
  );
  const [values, setValues] = useState<Values>(initial);
  const [timing, setTiming] = useState<AddressChangeTiming>('asap');
  const [validFrom, setValidFrom] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [serverErrors, setServerErrors] = useState<Array<{ field: string; code: string }>>([]);
  const { ref, refused } = useFocusFirstError();
  const countries = useSupportedCountries(s.id, countryRoleOf(partner.roles), values.countryCode);
  const salutations = useSalutationOptions(access.names, partner.address.salutationCode);
  const messages = useAddressErrorTexts();

  const dirty = (Object.keys(initial) as Array<keyof Values>).some(
    (field) => values[field].trim() !== initial[field].trim(),
  );
  const { release, confirmLeave } = useUnsavedChangesGuard(dirty, t('address-change.unsavedConfirm'));
  const chosenDate = timed && timing === 'date' ? validFrom : null;
  const problems = [
    ...addressErrors({ ...values, validFrom: chosenDate }, ruleContext),
    ...(timed ? timingErrors(timing, validFrom) : []),
  ];
  const errorTexts = messages(
    [...serverErrors, ...(submitted ? problems : [])].map(({ field, code }) => ({ field, code })),
  );
  const errors: Partial<Record<AddressField, string>> = {
    ...errorTexts,
    ...Object.fromEntries(
      serverErrors
        .filter((error) => error.code in SERVER_ONLY_CODES)
        .map((error) => [error.field, t(`address-change.error.${SERVER_ONLY_CODES[error.code]}`)]),
    ),
  };
  const required = requiredAddressFields(ruleContext, values.salutationCode);
  const today = ruleContext.today;
  const missesNextIssue = asapMissesNextIssue(timed ? timing : 'asap', partner.nextPhysicalIssue, today);

  function change(field: PostalField | ContactField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => current.filter((error) => error.field !== field));
  }

  function check(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    // The server's refusals stand until the next try; the form's own rules decide now.
    setServerErrors([]);
    if (problems.length > 0) {
      refused();
      return;
    }
    setConfirming(true);
  }

  async function save() {
    setSending(true);
    try {
      await addressApi(api).change(s.id, partner.bpNumber, {
        ...postalAddressOf(values, ruleContext.addressLines),
        emailAddress: trimmedOrNull(values.emailAddress),
        phoneNumber: trimmedOrNull(values.phoneNumber),
        dateOfBirth: trimmedOrNull(values.dateOfBirth),
        validFrom: chosenDate || null,
      });
      setConfirming(false);
      release();
      const saved: SavedChange = { bpNumber: partner.bpNumber, validFrom: chosenDate || null };
      navigate(href(ROUTES.subscriptionAddresses, { id: s.id }), { state: { saved } });
    } catch (error) {
      setConfirming(false);
      const fields = apiFieldCodes(error);
      if (fields && Object.keys(fields).length > 0) {
        setServerErrors(Object.entries(fields).map(([field, code]) => ({ field, code })));
        refused();
      } else setFailed(true);
    } finally {
      setSending(false);
    }
  }

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
    <form ref={ref} className="address-form" onSubmit={check} noValidate>
      <p className="field-note muted">{t('account.changes.requiredNote')}</p>
      <AddressFields
        legend={t('address-change.addressLegend')}
        values={values}
        onChange={change}
        errors={errors}
        required={required}
        addressLines={ruleContext.addressLines}
        salutations={salutations}
        countries={countries.options}
        namesLocked={!access.names}
        countryLocked={!access.country}
        disabled={sending}
      />
      <fieldset className="address-fields">
        <legend>{t('address-change.contactLegend')}</legend>
        <InputField
          {...contact('emailAddress', access.email)}
          type="email"
          autoComplete="email"
          maxChars={ADDRESS_LIMITS.email}
        />
        <InputField
          {...contact('phoneNumber', access.phone)}
          type="tel"
          autoComplete="tel"
          maxChars={ADDRESS_LIMITS.phone}
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
      {timed && (
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
            onChange={(event) => {
              setValidFrom(event.target.value);
              setServerErrors((current) => current.filter((error) => error.field !== 'validFrom'));
            }}
            error={timing === 'date' ? errors.validFrom : undefined}
            className="field-narrow"
          />
        </RadioGroup>
      )}
      {missesNextIssue && (
        <Alert variant="warning">
          <p>
            {partner.nextPhysicalIssue?.issueNumber
              ? t('address-change.nextIssueWarning', { issueNumber: partner.nextPhysicalIssue.issueNumber })
              : t('address-change.nextIssueWarningPlain')}
          </p>
        </Alert>
      )}
      <p className="field-note muted">{t('address-change.visibleAfter')}</p>
      <div className="form-actions">
        <button type="submit" className="button" disabled={sending}>
          {t('address-change.save')}
        </button>
        {/* Cancel leaves like a link does: with unsaved changes it asks first (account-flows.md §2 "Addresses"). */}
        <button type="button" className="button button-secondary" onClick={() => confirmLeave() && onDone()}>
          {t('address-change.cancel')}
        </button>
      </div>
      {confirming && (
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
      )}
      {failed && <ErrorDialog message={t('address-change.failed')} onClose={() => setFailed(false)} />}
    </form>
  );
}
