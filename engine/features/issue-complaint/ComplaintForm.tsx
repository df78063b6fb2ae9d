import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useNavigate } from 'react-router';
import type {
  CompensationAnswer,
  ComplaintIssue,
  ComplaintState,
} from '../../../schemas/generated/account-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { RadioGroup, SelectField } from '../../ui/fields';
import { useResource } from '../../account/resource';
import { usePortal } from '../../core/PortalContext';
import { href, ROUTES } from '../../domain/routeRefs';
import { complaintReady, type CompensationOption, type ComplaintReason } from '../../domain/complaint';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { formatDate } from '../../domain/dates';
import { Loading } from '../../ui/Loading';
import { complaintApi } from './complaintApi';
import { complaintFailureOf } from './complaintOutcomes';
import { ComplaintSuccessDialog } from './ComplaintSuccessDialog';

/**
 * §4 "Select issue, choose reason, compensation options load; submit needs both; no options gives
 * an overlay to contact". The options are asked for the chosen issue (the server narrows the
 * tenant's options per issue); an issue with a complaint already is listed but cannot be chosen.
 */
export function ComplaintForm({
  subscription: s,
  state,
  onDone,
  onStale,
  onBack,
}: {
  subscription: Subscription;
  state: ComplaintState;
  /** A complaint was made: a fresh form over the state loaded again. */
  onDone: () => void;
  /** The server knows more (a complaint exists, the maximum is reached): load the state again. */
  onStale: () => void;
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const navigate = useNavigate();
  const [issue, setIssue] = useState('');
  const [reason, setReason] = useState<ComplaintReason | ''>('');
  const [option, setOption] = useState<CompensationOption | ''>('');
  const [overlayClosedFor, setOverlayClosedFor] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<CompensationAnswer | null>(null);
  const [refusal, setRefusal] = useState<'exists' | 'limit' | null>(null);
  const [failed, setFailed] = useState(false);
  const asking = Boolean(issue && reason);
  const options = useResource<CompensationOption[] | null>(
    `${s.id}/compensation-options?${asking ? issue : ''}`,
    (client) => (asking ? complaintApi(client).options(s.id, issue) : Promise.resolve(null)),
  );
  const offered = options.state.status === 'ready' ? options.state.data : null;
  const ready = complaintReady({ issue, reason, option }) && offered?.includes(option as CompensationOption);

  const issueLabel = (entry: ComplaintIssue) => {
    const name = entry.issueNumber
      ? t('issue-complaint.issue', { issueNumber: entry.issueNumber })
      : (entry.description ?? entry.issue);
    const date = entry.dateOfFirstSale ? ` (${formatDate(entry.dateOfFirstSale, i18n.language)})` : '';
    return `${name}${date}${entry.complained ? ` – ${t('issue-complaint.complained')}` : ''}`;
  };

  function chooseIssue(value: string) {
    setIssue(value);
    setOption('');
    setRefusal(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || sending) return;
    setSending(true);
    try {
      setAnswer(
        await complaintApi(api).request(s.id, {
          issue,
          complaintReason: reason as ComplaintReason,
          compensationOption: option as CompensationOption,
        }),
      );
    } catch (error) {
      const failure = complaintFailureOf(error);
      if (failure === 'complaint:failed') {
        setFailed(true);
        return;
      }
      setRefusal(failure === 'complaint:exists' ? 'exists' : 'limit');
      setIssue('');
      setOption('');
      onStale();
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="complaint-form" onSubmit={submit} noValidate>
      <SelectField
        label={t('issue-complaint.issueLabel')}
        required
        value={issue}
        disabled={sending}
        onChange={(event) => chooseIssue(event.target.value)}
      >
        <option value="">{t('issue-complaint.issuePlaceholder')}</option>
        {state.issues.map((entry) => (
          <option key={entry.issue} value={entry.issue} disabled={entry.complained}>
            {issueLabel(entry)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('issue-complaint.reasonLabel')}
        required
        value={reason}
        disabled={sending}
        onChange={(event) => setReason(event.target.value as ComplaintReason | '')}
      >
        <option value="">{t('issue-complaint.reasonPlaceholder')}</option>
        {state.reasons.map((entry) => (
          <option key={entry} value={entry}>
            {t(`issue-complaint.reason.${entry}`)}
          </option>
        ))}
      </SelectField>

      {asking && options.state.status === 'loading' && <Loading />}
      {asking && options.state.status === 'failed' && <ErrorDialog onClose={() => chooseIssue('')} />}
      {offered && offered.length > 0 && (
        <RadioGroup
          className="compensation-options"
          testId="compensation-options"
          legend={t('issue-complaint.optionLabel')}
          required
          name="compensation"
          options={offered.map((entry) => ({
            value: entry,
            label: t(`issue-complaint.option.${entry}`),
            description: t(`issue-complaint.optionText.${entry}`),
          }))}
          value={option}
          disabled={sending}
          onChange={setOption}
        />
      )}
      {offered && offered.length === 0 && overlayClosedFor !== issue && (
        <Dialog
          title={t('issue-complaint.noOptionsTitle')}
          onClose={() => setOverlayClosedFor(issue)}
          actions={
            <>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setOverlayClosedFor(issue)}
              >
                {t('shell.close')}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => navigate(href(ROUTES.contact, {}, { subscriptionId: s.id }))}
              >
                {t('issue-complaint.toContact')}
              </button>
            </>
          }
        >
          <p>{t('issue-complaint.noOptions')}</p>
        </Dialog>
      )}
      {offered && offered.length === 0 && overlayClosedFor === issue && (
        <Alert variant="info">
          <p>{t('issue-complaint.noOptions')}</p>
        </Alert>
      )}
      {refusal && (
        <Alert variant="warning">
          <p>{t(`issue-complaint.refusal.${refusal}`)}</p>
        </Alert>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={!ready || sending}>
          {t('issue-complaint.submit')}
        </button>
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('account.flow.back')}
        </button>
      </div>
      {answer && <ComplaintSuccessDialog answer={answer} onClose={onDone} />}
      {failed && <ErrorDialog message={t('issue-complaint.failed')} onClose={() => setFailed(false)} />}
    </form>
  );
}
