import { useCallback } from 'react';
import { useTranslation } from '../../core/translation';
import { Link } from '../../core/links';
import type { CancelAnswer, CancellationIssue } from '../../../schemas/generated/offers';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useTenantSettings } from '../../account/capabilityContext';
import { href, ROUTES } from '../../domain/routeRefs';
import { cancellationDateLabel } from '../../domain/cancellation';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { Dialog } from '../../ui/Dialog';
import { formatDate } from '../../domain/dates';

/**
 * A date of the cancellation infos in the tenant's date style (§4, §9): date, issue number, or both;
 * a null issue is the earliest possible date. `onlyDate`: the form says already that the earliest
 * date applies (an extraordinary cancellation's fixed date), so its field shows the date alone,
 * which fits a phone's width. The last issue of the period paid for, or of the term, says so.
 */
export function useDateLabel(): (issue: CancellationIssue, onlyDate?: boolean) => string {
  const { t, i18n } = useTranslation();
  const style = useTenantSettings().cancellation.dateStyle;
  const labelOf = useCallback(
    (issue: CancellationIssue, onlyDate: boolean) => {
      const label = cancellationDateLabel(issue, style);
      switch (label.kind) {
        case 'earliest':
          if (label.date && onlyDate) return formatDate(label.date, i18n.language);
          return label.date
            ? t('cancellation.dateLabel.earliestOn', { date: formatDate(label.date, i18n.language) })
            : t('cancellation.dateLabel.earliest');
        case 'date':
          return formatDate(label.date, i18n.language);
        case 'issue':
          return t('cancellation.dateLabel.issue', { issueNumber: label.issueNumber });
        case 'issue_date':
          return t('cancellation.dateLabel.issueDate', {
            issueNumber: label.issueNumber,
            date: formatDate(label.date, i18n.language),
          });
      }
    },
    [t, i18n.language, style],
  );
  return useCallback(
    (issue: CancellationIssue, onlyDate = false) =>
      issue.endOf
        ? t(`cancellation.dateLabel.endOf.${issue.endOf}`, { label: labelOf(issue, onlyDate) })
        : labelOf(issue, onlyDate),
    [t, labelOf],
  );
}

/** §2 "confirmation (when the tenant requires it, with date text)". */
export function ConfirmCancellationDialog({
  subscription: s,
  issue,
  exceptional,
  sending,
  onConfirm,
  onClose,
}: {
  subscription: Subscription;
  issue: CancellationIssue | null;
  exceptional: boolean;
  sending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const dateLabel = useDateLabel();
  const date = issue ? dateLabel(issue) : t('cancellation.dateLabel.earliest');
  // An extraordinary termination names its day where the infos give it (§2 "with date text").
  const exceptionalDay = exceptional && issue?.dateOfFirstSale ? issue.dateOfFirstSale : null;
  return (
    <Dialog
      title={t('cancellation.confirmTitle')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('cancellation.keep')}
          </button>
          <button type="button" className="button button-danger" disabled={sending} onClick={onConfirm}>
            {t('cancellation.confirmYes')}
          </button>
        </>
      }
    >
      <p>
        {exceptional
          ? exceptionalDay
            ? t('cancellation.confirmTextExceptionalOn', {
                title: s.displayName,
                date: formatDate(exceptionalDay, i18n.language),
              })
            : t('cancellation.confirmTextExceptional', { title: s.displayName })
          : t('cancellation.confirmText', { title: s.displayName, date })}
      </p>
    </Dialog>
  );
}

/**
 * §2 "cancellation success (with print option and optional revocation link to the contact route
 * with query subscriptionId and activity)": the link only when the tenant names a revocation
 * activity and offers the contact form.
 */
export function CancellationSuccessDialog({
  subscription: s,
  answer,
  onClose,
}: {
  subscription: Subscription;
  answer: CancelAnswer;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const tenant = useTenantSettings();
  const activity = tenant.cancellation.revocationContactActivity;
  const revocation = activity && isFeatureOn(tenant, 'contact-form', s.publication);
  const dateLabel = useDateLabel();
  // In the tenant's date style, as the date was chosen and confirmed (§4 "Date display style"),
  // the end of the period paid for or of the term named as the select named it.
  const date = answer.issueNumber
    ? dateLabel({
        issueNumber: answer.issueNumber,
        dateOfFirstSale: answer.effectiveDate,
        endOf: answer.endOf,
      })
    : formatDate(answer.effectiveDate, i18n.language);
  return (
    <Dialog
      title={t('cancellation.successTitle')}
      variant="success"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={() => window.print()}>
            {t('cancellation.print')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('shell.close')}
          </button>
        </>
      }
    >
      <p>
        {answer.type === 'exceptional'
          ? t('cancellation.successTextExceptional', {
              title: s.displayName,
              orderNumber: s.orderNumber,
              date,
            })
          : t('cancellation.successText', { title: s.displayName, orderNumber: s.orderNumber, date })}
      </p>
      {revocation && (
        <p>
          {t('cancellation.revokeHint')}{' '}
          <Link to={href(ROUTES.contact, {}, { subscriptionId: s.id, activity })}>
            {t('cancellation.revoke')}
          </Link>
        </p>
      )}
    </Dialog>
  );
}
