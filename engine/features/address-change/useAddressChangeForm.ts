import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useNavigate } from 'react-router';
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import type { AddressChangeRequest } from '../../../schemas/generated/address-change-request';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useTenantSettings } from '../../account/capabilityContext';
import { useAddressRuleContext, useSalutationOptions } from '../../account/changes/addressContext';
import { saidWhileTyping, useAddressErrorTexts } from '../../account/changes/addressErrorTexts';
import { apiErrorCode, apiFieldCodes } from '../../account/changes/apiFieldErrors';
import { useSupportedCountries } from '../../account/changes/countries';
import { useFocusFirstError } from '../../ui/focusFirstError';
import {
  postalAddressOf,
  postalValuesOf,
  type OrganisationField,
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
import { addressErrors, type AddressField } from '../../domain/addressRules';
import { lastDayOfTerm, withinTerm } from '../../domain/subscriptionTerm';
import { addressApi, type SavedChange } from './addressApi';

export type ContactField = 'emailAddress' | 'phoneNumber' | 'dateOfBirth';
type Values = PostalValues & Record<OrganisationField | ContactField, string>;
type ServerError = { field: string; code: string };

const initialValues = (partner: SubscriptionPartner, addressLines: boolean): Values => ({
  ...postalValuesOf(partner.address, addressLines),
  company2: partner.company2 ?? '',
  jobTitle: partner.jobTitle ?? '',
  department: partner.department ?? '',
  emailAddress: partner.emailAddress ?? '',
  phoneNumber: partner.phoneNumber ?? '',
  dateOfBirth: partner.dateOfBirth ?? '',
});

const trimmedOrNull = (value: string) => value.trim() || null;

/** Codes only the server can know (the tenant's locks, the countries, the account's proven address). */
const SERVER_ONLY_CODES: Record<string, string> = {
  not_editable: 'notEditable',
  not_supported: 'notSupported',
  not_verified: 'notVerified',
};

/**
 * What the tenant and the subscription allow (account-flows.md §5): the editable fields, the rules'
 * context with the term's end, and whether a dated change is offered.
 */
function useAddressChangeRules(s: Subscription, partner: SubscriptionPartner) {
  const tenant = useTenantSettings();
  const access = addressChangeAccess(tenant.addressChange);
  const baseContext = useAddressRuleContext(s.publication, Boolean(partner.emailAddress));
  // A dated change may not begin after the subscription's end, as the server checks;
  // when even tomorrow lies after it, no date is offered at all.
  const termEnd = lastDayOfTerm(s);
  const ruleContext = useMemo(() => ({ ...baseContext, termEnd }), [baseContext, termEnd]);
  const timed =
    Boolean(tenant.addressChange.timedChanges) && withinTerm(addDaysIso(baseContext.today, 1), termEnd);
  return { access, termEnd, ruleContext, timed, today: ruleContext.today };
}

/** The form's messages: its own rules once submitted, the server's refusals until the next try. */
function useAddressChangeErrors(
  problems: ServerError[],
  serverErrors: ServerError[],
  submitted: boolean,
  values: Partial<Record<AddressField, string | null>>,
) {
  const { t } = useTranslation();
  const messages = useAddressErrorTexts();
  const errorTexts = messages(
    [...serverErrors, ...(submitted ? problems : saidWhileTyping(problems))].map(({ field, code }) => ({
      field,
      code,
    })),
    values,
  );
  const errors: Partial<Record<AddressField, string>> = {
    ...errorTexts,
    ...Object.fromEntries(
      serverErrors
        .filter((error) => error.code in SERVER_ONLY_CODES)
        .map((error) => [error.field, t(`address-change.error.${SERVER_ONLY_CODES[error.code]}`)]),
    ),
  };
  return errors;
}

/**
 * Saving, after the confirmation: the change sent on the details the form loaded (`basedOn`), then
 * back to the addresses with the saved change to show; the server's refused fields go to the form
 * (`onFields`); details changed meanwhile are loaded again (`onChangedMeanwhile`) and said so; any
 * other refusal is the error dialog.
 */
function useAddressSave(
  s: Subscription,
  partner: SubscriptionPartner,
  onFields: (fields: ServerError[]) => void,
  onChangedMeanwhile: () => Promise<void>,
) {
  const { api } = usePortal();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);

  async function save(change: AddressChangeRequest, release: () => void) {
    setSending(true);
    try {
      await addressApi(api).change(s.id, partner.bpNumber, { ...change, basedOn: partner.addressVersion });
      setConfirming(false);
      release();
      const saved: SavedChange = { bpNumber: partner.bpNumber, validFrom: change.validFrom || null };
      navigate(href(ROUTES.subscriptionAddresses, { id: s.id }), { state: { saved } });
    } catch (error) {
      setConfirming(false);
      const fields = apiFieldCodes(error);
      if (fields && Object.keys(fields).length > 0) {
        onFields(Object.entries(fields).map(([field, code]) => ({ field, code })));
      } else if (apiErrorCode(error) === 'address_changed_meanwhile') {
        await onChangedMeanwhile().catch(() => setFailed(true));
      } else setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return { confirming, setConfirming, sending, failed, setFailed, save };
}

/**
 * The person's entries on the partner's details as loaded now: a field they changed keeps what
 * they typed, the others show the details as they are (another window saved, the order system
 * wrote), so nothing typed is lost and nothing changed meanwhile is written over unseen.
 */
function onNewDetails<V extends Record<string, string>>(entered: V, loaded: V, now: V): V {
  const merged = { ...now };
  for (const field of Object.keys(now) as Array<keyof V>)
    if (entered[field].trim() !== loaded[field].trim()) merged[field] = entered[field];
  return merged;
}

/**
 * The address form's state and calls (account-flows.md §5) for one partner: the values with every
 * rule of engine/domain/addressRules.ts addressErrors (the server checks the same), the timing,
 * the check before the confirmation, the saving, and the guard against leaving with unsaved
 * changes (§2).
 */
export function useAddressChangeForm(
  s: Subscription,
  partner: SubscriptionPartner,
  onChangedMeanwhile: () => Promise<void>,
) {
  const { t } = useTranslation();
  const rules = useAddressChangeRules(s, partner);
  const { access, ruleContext, timed, today } = rules;
  const initial = useMemo(
    () => initialValues(partner, ruleContext.addressLines),
    [partner, ruleContext.addressLines],
  );
  // The address as on record (street and number as such, not as the first line the form opens
  // with): what the person leaves as it is there is not judged by the limits (addressRules.ts).
  const onRecord = useMemo(() => initialValues(partner, false), [partner]);
  const [values, setValues] = useState<Values>(initial);
  // The details the entries were made on. When the partner is loaded again (after a refusal of
  // details changed meanwhile, or quietly in another language) the entries move onto it, and new
  // details under the person's entries are said, whichever load brought them.
  const loaded = useRef({ values: initial, version: partner.addressVersion });
  const saveRefusedAsStale = useRef(false);
  const [changedMeanwhile, setChangedMeanwhile] = useState(false);
  useEffect(() => {
    const before = loaded.current;
    if (before.values === initial) return;
    loaded.current = { values: initial, version: partner.addressVersion };
    const edited = (Object.keys(initial) as Array<keyof Values>).some(
      (field) => values[field].trim() !== before.values[field].trim(),
    );
    if (before.version !== partner.addressVersion && (edited || saveRefusedAsStale.current))
      setChangedMeanwhile(true);
    saveRefusedAsStale.current = false;
    setValues((entered) => onNewDetails(entered, before.values, initial));
  }, [initial]); // eslint-disable-line react-hooks/exhaustive-deps -- only a new load moves the entries
  const [timing, setTiming] = useState<AddressChangeTiming>('asap');
  const [validFrom, setValidFrom] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ServerError[]>([]);
  const { ref, refused } = useFocusFirstError();
  const countries = useSupportedCountries(s.id, countryRoleOf(partner.roles), values.countryCode);
  const salutations = useSalutationOptions(access.names, partner.address.salutationCode);

  const dirty = (Object.keys(initial) as Array<keyof Values>).some(
    (field) => values[field].trim() !== initial[field].trim(),
  );
  const { release, confirmLeave } = useUnsavedChangesGuard(dirty, t('address-change.unsavedConfirm'));
  const chosenDate = timed && timing === 'date' ? validFrom : null;
  const problems = [
    ...addressErrors({ ...values, validFrom: chosenDate }, { ...ruleContext, onRecord }),
    ...(timed ? timingErrors(timing, validFrom) : []),
  ];
  const errors = useAddressChangeErrors(problems, serverErrors, submitted, values);
  const forget = (field: string) =>
    setServerErrors((current) => current.filter((error) => error.field !== field));

  const saving = useAddressSave(
    s,
    partner,
    (fields) => {
      setServerErrors(fields);
      refused();
    },
    () => {
      saveRefusedAsStale.current = true;
      return onChangedMeanwhile();
    },
  );
  const save = () => {
    setChangedMeanwhile(false);
    return saving.save(
      {
        ...postalAddressOf(values),
        company2: trimmedOrNull(values.company2),
        jobTitle: trimmedOrNull(values.jobTitle),
        department: trimmedOrNull(values.department),
        emailAddress: trimmedOrNull(values.emailAddress),
        phoneNumber: trimmedOrNull(values.phoneNumber),
        dateOfBirth: trimmedOrNull(values.dateOfBirth),
        validFrom: chosenDate || null,
      },
      release,
    );
  };

  function change(field: PostalField | OrganisationField | ContactField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    forget(field);
  }

  function chooseValidFrom(value: string) {
    setValidFrom(value);
    forget('validFrom');
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
    saving.setConfirming(true);
  }

  return {
    ...rules,
    values,
    onRecord,
    change,
    errors,
    required: starred(requiredAddressFields(ruleContext, values.salutationCode, values.company1), access),
    salutations,
    countries,
    timing,
    setTiming,
    validFrom,
    chooseValidFrom,
    chosenDate,
    missesNextIssue: asapMissesNextIssue(timed ? timing : 'asap', partner.nextPhysicalIssue, today),
    ref,
    check,
    ...saving,
    save,
    changedMeanwhile,
    confirmLeave,
  };
}

export type AddressChangeModel = ReturnType<typeof useAddressChangeForm>;

/**
 * The starred fields the person can change: a locked name (the tenant keeps names to the contact
 * form) is not starred, since nothing can be typed into it; the server still requires one.
 */
function starred(required: Set<AddressField>, access: { names: boolean }): Set<AddressField> {
  if (!access.names) for (const field of ['lastName1', 'company1'] as const) required.delete(field);
  return required;
}
