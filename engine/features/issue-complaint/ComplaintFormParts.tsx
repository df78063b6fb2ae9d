/**
 * The complaint form's parts (account-flows.md §4): the issue and reason selects, the compensation
 * options, and what shows when the issue has none (an overlay pointing to the contact form, then a
 * notice).
 */
import { useTranslation } from '../../core/translation';
import { useNavigate } from 'react-router';
import type { ComplaintIssue, ComplaintState } from '../../../schemas/generated/account-changes';
import { RadioGroup, SelectField } from '../../ui/fields';
import { href, ROUTES } from '../../domain/routeRefs';
import type { ComplaintReason } from '../../domain/complaint';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { formatDate } from '../../domain/dates';
import type { ComplaintFormModel } from './useComplaintForm';

type Model = { form: ComplaintFormModel };

/** An issue by number (or description) and first sale, marked when it has a complaint already. */
function useIssueLabel() {
  const { t, i18n } = useTranslation();
  return (entry: ComplaintIssue) => {
    const name = entry.issueNumber
      ? t('issue-complaint.issue', { issueNumber: entry.issueNumber })
      : (entry.description ?? entry.issue);
    const date = entry.dateOfFirstSale ? ` (${formatDate(entry.dateOfFirstSale, i18n.language)})` : '';
    return `${name}${date}${entry.complained ? ` – ${t('issue-complaint.complained')}` : ''}`;
  };
}

/** The issue (one with a complaint already is listed but cannot be chosen) and the reason. */
export function IssueAndReason({ form, state }: Model & { state: ComplaintState }) {
  const { t } = useTranslation();
  const issueLabel = useIssueLabel();
  const { issue, chooseIssue, reason, setReason, sending } = form;
  return (
    <>
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
    </>
  );
}

/** The compensation options offered for the issue, each with its description. */
export function CompensationOptions({ form }: Model) {
  const { t } = useTranslation();
  const { offered, option, setOption, sending } = form;
  return (
    <RadioGroup
      className="compensation-options"
      testId="compensation-options"
      legend={t('issue-complaint.optionLabel')}
      required
      name="compensation"
      options={(offered ?? []).map((entry) => ({
        value: entry,
        label: t(`issue-complaint.option.${entry}`),
        description: t(`issue-complaint.optionText.${entry}`),
      }))}
      value={option}
      disabled={sending}
      onChange={setOption}
    />
  );
}

/** No options for the issue: the overlay to contact, and once it is closed for this issue a notice. */
export function NoCompensationOptions({ form, subscriptionId }: Model & { subscriptionId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { issue, overlayClosedFor, setOverlayClosedFor } = form;
  if (overlayClosedFor === issue) {
    return (
      <Alert variant="info">
        <p>{t('issue-complaint.noOptions')}</p>
      </Alert>
    );
  }
  return (
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
            onClick={() => navigate(href(ROUTES.contact, {}, { subscriptionId }))}
          >
            {t('issue-complaint.toContact')}
          </button>
        </>
      }
    >
      <p>{t('issue-complaint.noOptions')}</p>
    </Dialog>
  );
}
