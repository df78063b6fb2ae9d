import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import type { HolidayServiceState, PostalAddress } from '../../../schemas/generated/account-changes';
import type { HolidayServiceRequest } from '../../../schemas/generated/holiday-service-request';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useAddressRuleContext } from '../../account/changes/addressContext';
import { saidWhileTyping, useAddressErrorTexts } from '../../account/changes/addressErrorTexts';
import { apiFieldCodes } from '../../account/changes/apiFieldErrors';
import { InputField, RadioGroup } from '../../ui/fields';
import { useFocusFirstError } from '../../ui/focusFirstError';
import {
  postalAddressOf,
  postalValuesOf,
  type PostalField,
  type PostalValues,
} from '../../account/changes/postalAddress';
import { useReplaceStoredSubscription } from '../../account/changes/storedSubscription';
import { usePortal } from '../../core/PortalContext';
import type { AddressInput } from '../../domain/addressRules';
import {
  holidayAddressErrors,
  holidayIssueSpan,
  holidayPossibleWithinTerm,
  holidayRangeErrors,
  type HolidayServiceType,
} from '../../domain/holidayService';
import { AFTER_TERM_END, type TermEnd } from '../../domain/subscriptionTerm';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { formatDate } from '../../domain/dates';
import { holidayApi } from './holidayApi';
import { holidayFailureOf } from './holidayOutcomes';
import { HolidayIssues } from './HolidayIssues';
import { RedirectAddress } from './RedirectAddress';
import { useHolidayIssues, useHolidayRange, type RangeField } from './useHolidayRange';

/** The last segment of a server field name (`businessPartner.zipcode` → `zipcode`). */
const fieldName = (name: string) => name.split(/[./]/).pop() ?? name;

/**
 * What the person typed into the form, kept by the page while a service planned meanwhile (in
 * another window) shows in its place: once that one is cancelled, the form opens with it again.
 */
export interface HolidayDraft {
  type: HolidayServiceType;
  range: { dateFrom: string; dateTo: string };
  address: PostalValues;
}

interface SetupProps {
  subscription: Subscription;
  state: HolidayServiceState;
  preselected?: HolidayServiceType;
  /** The entries of an earlier try, refused because another service was planned meanwhile. */
  draft?: HolidayDraft;
  onBack: () => void;
  onBooked: () => void;
  /** 409 holiday_service_active: another service was planned meanwhile; the entries to keep. */
  onActive: (draft: HolidayDraft) => void;
}

/**
 * The setup form of §4 "Holiday service": the type (preselected by the query when offered), the
 * date range (§5: from tomorrow — the server's earliestStart —, at most the type's weeks, a
 * download at most one month; §9 picker default four weeks; never after the subscription's end,
 * engine/domain/subscriptionTerm.ts), the issues the range picks (inside its dates), and for a
 * redirect the holiday address (§5 "redirect requires a valid address"). A submit with an empty or
 * invalid date says so beside the field; a valid range's submit stays disabled while there are no
 * issues or only one already shipped (holidaySubmitBlock), which the issue list says.
 */
export function HolidaySetupForm({
  subscription: s,
  state,
  preselected,
  draft,
  onBack,
  onBooked,
  onActive,
}: SetupProps) {
  const { t } = useTranslation();
  const setup = useHolidaySetup({ subscription: s, state, preselected, draft, onBooked, onActive });
  const { type, rangeOk, issues, issueList, block, today, sending, serverFields } = setup;
  if (!holidayPossibleWithinTerm(state.earliestStart, setup.termEnd)) {
    return <EndsBeforeStart termEnd={setup.termEnd} onBack={onBack} />;
  }
  return (
    <form
      ref={setup.ref}
      className="holiday-form"
      onSubmit={setup.submit}
      noValidate
      aria-labelledby="holiday-setup-title"
    >
      <h2 id="holiday-setup-title">{t('holiday-service.setup.heading')}</h2>
      <RadioGroup
        className="holiday-types"
        legend={t('holiday-service.setup.type')}
        name="holiday-type"
        options={state.types.map((option) => ({
          value: option,
          label: t(`holiday-service.type.${option}`),
          description: t(`holiday-service.typeText.${option}`),
        }))}
        value={type}
        onChange={setup.chooseType}
      />

      <HolidayDates earliestStart={state.earliestStart} setup={setup} />

      {rangeOk && <HolidayIssues resource={issues} issues={issueList} block={block} today={today} />}

      {type === 'redirect' && (
        <RedirectAddress
          subscription={s}
          values={setup.address}
          onChange={setup.changeAddress}
          errors={setup.addressErrorTexts}
          ruleContext={setup.ruleContext}
        />
      )}

      {serverFields && Object.keys(serverFields).length === 0 && (
        <Alert variant="error">
          <p>{t('holiday-service.error.invalid')}</p>
        </Alert>
      )}
      <p className="field-note muted">{t('account.changes.requiredNote')}</p>
      <div className="form-actions">
        <button
          type="submit"
          className="button"
          // An incomplete range is said on submit, beside its field; a complete one waits for its issues.
          disabled={sending || (rangeOk && (!issueList || block !== null))}
        >
          {t(`holiday-service.setup.submit.${type}`)}
        </button>
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('account.flow.back')}
        </button>
      </div>
      {setup.failed && (
        <ErrorDialog message={t('holiday-service.error.failed')} onClose={() => setup.setFailed(false)} />
      )}
    </form>
  );
}

/** The subscription ends before a service could begin: no date to offer. */
function EndsBeforeStart({ termEnd, onBack }: { termEnd: string | null; onBack: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="holiday-form" aria-labelledby="holiday-setup-title">
      <h2 id="holiday-setup-title">{t('holiday-service.setup.heading')}</h2>
      <Alert variant="info">
        <p>{t('holiday-service.endsBeforeStart', { date: formatDate(termEnd, i18n.language) })}</p>
      </Alert>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('account.flow.back')}
        </button>
      </div>
    </section>
  );
}

/** The range's two date fields: from the earliest start, to the type's limit or the subscription's end (§5). */
function HolidayDates({ earliestStart, setup }: { earliestStart: string; setup: HolidaySetup }) {
  const { t, i18n } = useTranslation();
  const { range, termEnd, maxDate, chooseDate, rangeMessage } = setup;
  return (
    <div className="field-row">
      <InputField
        type="date"
        label={t('holiday-service.setup.dateFrom')}
        required
        min={earliestStart}
        max={termEnd ?? undefined}
        value={range.dateFrom}
        onChange={(event) => chooseDate('dateFrom', event.target.value)}
        error={rangeMessage('dateFrom')}
      />
      <InputField
        type="date"
        label={t('holiday-service.setup.dateTo')}
        required
        min={range.dateFrom || earliestStart}
        max={maxDate}
        value={range.dateTo}
        hint={
          maxDate
            ? termEnd && maxDate === termEnd
              ? t('holiday-service.setup.termEnd', { date: formatDate(termEnd, i18n.language) })
              : t('holiday-service.setup.latestEnd', { date: formatDate(maxDate, i18n.language) })
            : undefined
        }
        onChange={(event) => chooseDate('dateTo', event.target.value)}
        error={rangeMessage('dateTo')}
      />
    </div>
  );
}

type HolidaySetup = ReturnType<typeof useHolidaySetup>;

/** A redirect's address opens with the goods recipient's salutation, name, company and country; the holiday address itself is left to fill in. */
function recipientNameOf(s: Subscription): PostalValues {
  const recipient = s.goodsRecipient ?? s.currentRoleBusinessPartner;
  return postalValuesOf({
    salutationCode: recipient.salutationCode,
    firstName: recipient.firstName,
    lastName1: recipient.lastName1,
    company1: recipient.company1,
    countryCode: recipient.countryCode,
  });
}

/** The booking sent (§7 POST holiday-service): the dates, the issues they span and a redirect's address. */
function bookingOf(
  s: Subscription,
  type: HolidayServiceType,
  range: { dateFrom: string; dateTo: string },
  span: ReturnType<typeof holidayIssueSpan>,
  redirectAddress: () => PostalAddress,
): HolidayServiceRequest {
  return {
    subscriptionId: s.id,
    service: type,
    dateFrom: range.dateFrom,
    dateTo: range.dateTo,
    ...span,
    ...(type === 'redirect' ? { businessPartner: redirectAddress() } : {}),
  };
}

/**
 * The form's state and its booking (§7 POST holiday-service, §8 "Holiday"): the range and its
 * issues, the redirect's address (§5 "redirect requires a valid address"), the errors in words —
 * the server's field codes first (useHolidayErrorTexts) — and the submit.
 */
function useHolidaySetup({
  subscription: s,
  state,
  preselected,
  draft,
  onBooked,
  onActive,
}: Omit<SetupProps, 'onBack'>) {
  const { api } = usePortal();
  const replaceStored = useReplaceStoredSubscription();
  const dates = useHolidayRange(s, state, preselected, draft);
  const { type, range, termEnd, rangeErrors, rangeOk } = dates;
  const [address, setAddress] = useState<PostalValues>(() => draft?.address ?? recipientNameOf(s));
  const ruleContext = useAddressRuleContext(s.publication, false);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [serverFields, setServerFields] = useState<Record<string, string> | null>(null);
  const { ref, refused } = useFocusFirstError();
  const picked = useHolidayIssues(s, dates);
  const { issueList, block, today } = picked;
  const addressProblems =
    type === 'redirect' ? holidayAddressErrors(address as AddressInput, ruleContext) : [];

  const { rangeMessage, addressErrorTexts } = useHolidayErrorTexts({
    serverFields,
    submitted,
    termEnd,
    rangeErrors,
    addressProblems,
    address,
  });

  // A changed entry drops the server's field codes: they were about the entries sent.
  const chooseType = (next: HolidayServiceType) => {
    setServerFields(null);
    dates.chooseType(next);
  };
  const chooseDate = (field: RangeField, value: string) => {
    setServerFields(null);
    dates.chooseDate(field, value);
  };
  const changeAddress = (field: PostalField, value: string) => {
    setServerFields(null);
    setAddress((current) => ({ ...current, [field]: value }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!rangeOk || addressProblems.length > 0) {
      refused();
      return;
    }
    if (!issueList || block || sending) return;
    setSending(true);
    setServerFields(null);
    try {
      const booking = bookingOf(s, type, range, holidayIssueSpan(issueList, today, range), () =>
        postalAddressOf(address),
      );
      const updated = await holidayApi(api).book(s.id, booking);
      replaceStored(updated);
      onBooked();
    } catch (error) {
      switch (holidayFailureOf(error)) {
        case 'holiday:active':
          onActive({ type, range, address });
          break;
        case 'holiday:invalid':
          setServerFields(apiFieldCodes(error) ?? {});
          refused();
          break;
        default:
          setFailed(true);
      }
    } finally {
      setSending(false);
    }
  }

  return {
    ...dates,
    ...picked,
    address,
    ruleContext,
    addressErrorTexts,
    sending,
    failed,
    setFailed,
    serverFields,
    ref,
    rangeMessage,
    chooseType,
    chooseDate,
    changeAddress,
    submit,
  };
}

/**
 * The range's and the address's errors in words: the server's field codes of the last booking
 * first (§8), then the form's own rules (§5); a missing entry only once the form was submitted.
 */
function useHolidayErrorTexts({
  serverFields,
  submitted,
  termEnd,
  rangeErrors,
  addressProblems,
  address,
}: {
  serverFields: Record<string, string> | null;
  address: PostalValues;
  submitted: boolean;
  termEnd: TermEnd;
  rangeErrors: ReturnType<typeof holidayRangeErrors>;
  addressProblems: ReturnType<typeof holidayAddressErrors>;
}) {
  const { t, i18n } = useTranslation();
  const addressMessages = useAddressErrorTexts();
  const rangeMessage = (field: RangeField): string | undefined => {
    const server = serverFields && Object.entries(serverFields).find(([name]) => fieldName(name) === field);
    if (server)
      return server[1] === AFTER_TERM_END && termEnd
        ? t('holiday-service.error.after_term_end', { date: formatDate(termEnd, i18n.language) })
        : t('holiday-service.error.invalidDate');
    const error = rangeErrors.find((e) => e.field === field);
    if (!error || (error.code === 'required' && !submitted)) return undefined;
    return t(`holiday-service.error.${error.code}`, {
      date: termEnd ? formatDate(termEnd, i18n.language) : '',
    });
  };
  const serverAddressErrors = Object.entries(serverFields ?? {})
    .filter(([name]) => name.startsWith('businessPartner'))
    .map(([name, code]) => ({ field: fieldName(name), code }));
  const addressErrorTexts = addressMessages(
    submitted || serverAddressErrors.length > 0
      ? [...serverAddressErrors, ...addressProblems]
      : saidWhileTyping(addressProblems),
    address,
  );
  return { rangeMessage, addressErrorTexts };
}
