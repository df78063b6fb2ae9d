import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import type { HolidayIssue, HolidayServiceState } from '../../../schemas/generated/account-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useAddressRuleContext } from '../../account/changes/addressContext';
import { useAddressErrorTexts } from '../../account/changes/addressErrorTexts';
import { apiFieldCodes } from '../../account/changes/apiFieldErrors';
import { InputField, RadioGroup } from '../../ui/fields';
import { useFocusFirstError } from '../../account/changes/focusFirstError';
import { postalAddressOf, postalValuesOf, type PostalValues } from '../../account/changes/postalAddress';
import { useReplaceStoredSubscription } from '../../account/changes/storedSubscription';
import { todayIso } from '../../account/changes/today';
import { useResource } from '../../account/resource';
import { usePortal } from '../../core/PortalContext';
import type { AddressInput } from '../../domain/addressRules';
import {
  addDaysIso,
  defaultHolidayRange,
  DEFAULT_HOLIDAY_WEEKS,
  holidayAddressErrors,
  holidayEndLimit,
  holidayIssueSpan,
  holidayPossibleWithinTerm,
  holidayRangeErrors,
  holidaySubmitBlock,
  issuesInsideDates,
  type HolidayServiceType,
} from '../../domain/holidayService';
import { AFTER_TERM_END, issuesWithinTerm, lastDayOfTerm } from '../../domain/subscriptionTerm';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { formatDate } from '../../domain/dates';
import { holidayApi } from './holidayApi';
import { holidayFailureOf } from './holidayOutcomes';
import { HolidayIssues } from './HolidayIssues';
import { RedirectAddress } from './RedirectAddress';

type RangeField = 'dateFrom' | 'dateTo';

/** The last segment of a server field name (`businessPartner.zipcode` → `zipcode`). */
const fieldName = (name: string) => name.split(/[./]/).pop() ?? name;

/**
 * The setup form of §4 "Holiday service": the type (preselected by the query when offered), the
 * date range (§5: from tomorrow — the server's earliestStart —, at most the type's weeks, a
 * download at most one month; §9 picker default four weeks; never after the subscription's end,
 * engine/domain/subscriptionTerm.ts), the issues the range picks (inside its dates), and for a
 * redirect the holiday address (§5 "redirect requires a valid address"). Submit stays disabled
 * while there are no issues or only one already shipped (holidaySubmitBlock).
 */
export function HolidaySetupForm({
  subscription: s,
  state,
  preselected,
  onBack,
  onBooked,
  onActive,
}: {
  subscription: Subscription;
  state: HolidayServiceState;
  preselected?: HolidayServiceType;
  onBack: () => void;
  onBooked: () => void;
  /** 409 holiday_service_active: another service was planned meanwhile. */
  onActive: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const replaceStored = useReplaceStoredSubscription();
  const addressMessages = useAddressErrorTexts();
  const [type, setType] = useState<HolidayServiceType>(() =>
    preselected && state.types.includes(preselected) ? preselected : state.types[0],
  );
  const weeksOf = (of: HolidayServiceType) => state.maxWeeks[of];
  // No day after the subscription's last one is offered (the server refuses it too).
  const termEnd = lastDayOfTerm(s);
  const [range, setRange] = useState(() =>
    defaultHolidayRange(type, state.earliestStart, weeksOf(type), termEnd),
  );
  const recipient = s.goodsRecipient ?? s.currentRoleBusinessPartner;
  const [address, setAddress] = useState<PostalValues>(() =>
    postalValuesOf({
      salutationCode: recipient.salutationCode,
      firstName: recipient.firstName,
      lastName1: recipient.lastName1,
      company1: recipient.company1,
      countryCode: recipient.countryCode,
    }),
  );
  const ruleContext = useAddressRuleContext(s.publication, false);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [serverFields, setServerFields] = useState<Record<string, string> | null>(null);
  const { ref, refused } = useFocusFirstError();

  // The server's earliest start is the rule's "tomorrow" (§5, §9).
  const rangeToday = addDaysIso(state.earliestStart, -1);
  const today = todayIso();
  const rangeErrors = holidayRangeErrors(
    { type, ...range },
    { today: rangeToday, weeks: weeksOf(type), termEnd },
  );
  const rangeOk = rangeErrors.length === 0;
  const issuesKey = rangeOk
    ? `${s.id}/holiday-issues?${range.dateFrom}&${range.dateTo}`
    : `${s.id}/holiday-issues`;
  const issues = useResource<HolidayIssue[] | null>(issuesKey, (client) =>
    rangeOk ? holidayApi(client).issues(s.id, range.dateFrom, range.dateTo) : Promise.resolve(null),
  );
  // The issues inside the chosen dates, none after the end: the rule the server picks them by.
  const issueList =
    issues.state.status === 'ready' && issues.state.data
      ? issuesWithinTerm(issuesInsideDates(issues.state.data, range), termEnd)
      : null;
  const block = issueList ? holidaySubmitBlock(issueList, today) : null;
  const addressProblems =
    type === 'redirect' ? holidayAddressErrors(address as AddressInput, ruleContext) : [];

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
  const addressErrorTexts =
    submitted || serverAddressErrors.length > 0
      ? addressMessages([...serverAddressErrors, ...addressProblems])
      : {};

  function chooseType(next: HolidayServiceType) {
    setType(next);
    setServerFields(null);
    // A new type keeps the start and opens with its own default length.
    setRange((current) => ({
      dateFrom: current.dateFrom,
      dateTo: holidayEndLimit(
        next,
        current.dateFrom || state.earliestStart,
        Math.min(DEFAULT_HOLIDAY_WEEKS, weeksOf(next)),
        termEnd,
      ),
    }));
  }

  function chooseDate(field: RangeField, value: string) {
    setServerFields(null);
    setRange((current) => {
      const next = { ...current, [field]: value };
      // A start moved past the end (or too far before it) takes the default length again.
      if (
        field === 'dateFrom' &&
        value &&
        next.dateTo &&
        (next.dateTo < value || next.dateTo > holidayEndLimit(type, value, weeksOf(type), termEnd))
      ) {
        next.dateTo = holidayEndLimit(type, value, Math.min(DEFAULT_HOLIDAY_WEEKS, weeksOf(type)), termEnd);
      }
      return next;
    });
  }

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
      const updated = await holidayApi(api).book(s.id, {
        subscriptionId: s.id,
        service: type,
        dateFrom: range.dateFrom,
        dateTo: range.dateTo,
        ...holidayIssueSpan(issueList, today, range),
        ...(type === 'redirect'
          ? { businessPartner: postalAddressOf(address, ruleContext.addressLines) }
          : {}),
      });
      replaceStored(updated);
      onBooked();
    } catch (error) {
      switch (holidayFailureOf(error)) {
        case 'holiday:active':
          onActive();
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

  const maxDate = range.dateFrom ? holidayEndLimit(type, range.dateFrom, weeksOf(type), termEnd) : undefined;
  if (!holidayPossibleWithinTerm(state.earliestStart, termEnd)) {
    // The subscription ends before a service could begin: no date to offer.
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
  return (
    <form
      ref={ref}
      className="holiday-form"
      onSubmit={submit}
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
        onChange={chooseType}
      />

      <div className="field-row">
        <InputField
          type="date"
          label={t('holiday-service.setup.dateFrom')}
          required
          min={state.earliestStart}
          max={termEnd ?? undefined}
          value={range.dateFrom}
          onChange={(event) => chooseDate('dateFrom', event.target.value)}
          error={rangeMessage('dateFrom')}
        />
        <InputField
          type="date"
          label={t('holiday-service.setup.dateTo')}
          required
          min={range.dateFrom || state.earliestStart}
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

      {rangeOk && <HolidayIssues resource={issues} issues={issueList} block={block} today={today} />}

      {type === 'redirect' && (
        <RedirectAddress
          subscription={s}
          values={address}
          onChange={(field, value) => {
            setServerFields(null);
            setAddress((current) => ({ ...current, [field]: value }));
          }}
          errors={addressErrorTexts}
          ruleContext={ruleContext}
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
          disabled={sending || !rangeOk || !issueList || block !== null}
        >
          {t(`holiday-service.setup.submit.${type}`)}
        </button>
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('account.flow.back')}
        </button>
      </div>
      {failed && <ErrorDialog message={t('holiday-service.error.failed')} onClose={() => setFailed(false)} />}
    </form>
  );
}
