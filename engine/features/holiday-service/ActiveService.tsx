import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { ContactLink } from '../../core/ContactLink';
import type { PlannedHolidayService } from '../../../schemas/generated/account-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { PostalAddressView } from '../../account/changes/PostalAddressView';
import { useReplaceStoredSubscription } from '../../account/changes/storedSubscription';
import { usePortal } from '../../core/PortalContext';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { formatDate } from '../../domain/dates';
import { holidayApi } from './holidayApi';
import { holidayFailureOf } from './holidayOutcomes';
import { todayIso } from '../../account/changes/today';

/** "from – to" of two optional values; one alone, or both the same, stands alone. */
const span = (from: string | null | undefined, to: string | null | undefined) =>
  from === to ? (from ?? '') : [from, to].filter(Boolean).join(' – ');

/**
 * §4 "If a planned service exists (redirect, download/mix-type change, or suspension) the active
 * view shows, with cancel only if cancellable" (the server decides isCancellable by
 * engine/domain/holidayService.ts canCancelHolidayService); "An active service must be cancelled
 * before it can be changed". A cancel is confirmed first; its answer replaces the stored subscription.
 */
export function ActiveService({
  subscription: s,
  planned,
  onBack,
  onCancelled,
  onGone,
  onChanged,
}: {
  subscription: Subscription;
  planned: PlannedHolidayService;
  onBack: () => void;
  onCancelled: () => void;
  /** Nothing was planned any more (cancelled in another tab): the page says so and loads its state. */
  onGone: () => void;
  /** The server's state moved on (not cancellable any more): load it again. */
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const replaceStored = useReplaceStoredSubscription();
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [tooLate, setTooLate] = useState(false);
  const date = (value: string | null | undefined) => formatDate(value, i18n.language);
  const issues = span(planned.fromIssueNumber, planned.toIssueNumber);
  const suspended = span(planned.suspendedFromIssueNr, planned.suspendedToIssueNr);
  const digital = span(planned.futureMixTypeFromIssueNr, planned.futureMixTypeToIssueNr);

  async function cancel() {
    setSending(true);
    try {
      const updated = await holidayApi(api).cancel(s.id, { subscriptionId: s.id, service: planned.type });
      replaceStored(updated);
      setConfirming(false);
      onCancelled();
    } catch (error) {
      setConfirming(false);
      const failure = holidayFailureOf(error);
      if (failure === 'holiday:not_cancellable') {
        setTooLate(true);
        onChanged();
      } else if (failure === 'holiday:not_planned') {
        // The stored subscription still shows the service (its holiday indicator): the server's now.
        await api
          .get<Subscription>(`/subscriptions/${encodeURIComponent(s.id)}`)
          .then(replaceStored, () => undefined);
        onGone();
      } else setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return (
    <section
      className="holiday-active card"
      aria-labelledby="holiday-active-title"
      data-testid="holiday-active"
    >
      {/* Planned until its first day; from then on it runs (a redirect's paper goes to the holiday address). */}
      <h2 id="holiday-active-title">
        {t(
          String(planned.dateFrom) <= todayIso()
            ? 'holiday-service.active.headingRunning'
            : 'holiday-service.active.heading',
        )}
      </h2>
      <dl className="facts">
        <dt>{t('holiday-service.active.type')}</dt>
        <dd>{t(`holiday-service.type.${planned.type}`)}</dd>
        <dt>{t('holiday-service.active.period')}</dt>
        <dd>
          {planned.dateTo
            ? t('holiday-service.period', { from: date(planned.dateFrom), to: date(planned.dateTo) })
            : t('holiday-service.periodOpen', { from: date(planned.dateFrom) })}
        </dd>
        {issues && (
          <>
            <dt>{t('holiday-service.active.issues')}</dt>
            <dd>{issues}</dd>
          </>
        )}
        {suspended && (
          <>
            <dt>{t('holiday-service.active.suspendedIssues')}</dt>
            <dd>{suspended}</dd>
          </>
        )}
        {digital && (
          <>
            <dt>{t('holiday-service.active.digitalIssues')}</dt>
            <dd>{digital}</dd>
          </>
        )}
        {planned.type === 'redirect' && (
          <>
            <dt>{t('holiday-service.active.address')}</dt>
            <dd>
              {/* The holiday address is the recipient's: a gift's giver, who may book the redirect,
                  is told that only the recipient sees it (server/holiday-service/holidayService.ts). */}
              {planned.address ? (
                <PostalAddressView address={planned.address} />
              ) : (
                t('holiday-service.active.addressRecipientOnly')
              )}
            </dd>
          </>
        )}
      </dl>
      {tooLate && (
        <Alert variant="warning">
          <p>{t('holiday-service.active.tooLate')}</p>
        </Alert>
      )}
      <p className="muted">
        {planned.isCancellable
          ? t('holiday-service.active.changeHint')
          : t(`holiday-service.active.notCancellable.${planned.type}`)}{' '}
        {!planned.isCancellable && (
          <ContactLink query={{ subscriptionId: s.id }}>{t('account.flow.contactUs')}</ContactLink>
        )}
      </p>
      <div className="form-actions">
        {planned.isCancellable && (
          <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
            {t('holiday-service.active.cancel')}
          </button>
        )}
        <button type="button" className="button button-secondary" onClick={onBack}>
          {t('account.flow.back')}
        </button>
      </div>
      {confirming && (
        <Dialog
          title={t('holiday-service.active.confirmTitle')}
          onClose={() => setConfirming(false)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
                {t('holiday-service.active.keep')}
              </button>
              <button
                type="button"
                className="button button-danger"
                disabled={sending}
                onClick={() => void cancel()}
              >
                {t('holiday-service.active.confirmYes')}
              </button>
            </>
          }
        >
          <p>
            {t('holiday-service.active.confirmText', {
              type: t(`holiday-service.type.${planned.type}`),
              from: date(planned.dateFrom),
            })}
          </p>
        </Dialog>
      )}
      {failed && <ErrorDialog onClose={() => setFailed(false)} />}
    </section>
  );
}
