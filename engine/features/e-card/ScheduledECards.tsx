import { useState } from 'react';
import type { ECardList } from '../../../schemas/generated/e-card-list';
import type { Resource } from '../../account/resource';
import { usePortal } from '../../core/PortalContext';
import { useTranslation } from '../../core/translation';
import { ApiError } from '../../domain/apiError';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { eCardApi } from './eCardApi';

type ScheduledCard = ECardList['cards'][number];

/**
 * The user's timed cards that have not gone out (docs/subscribers.md "E-cards"): who gets which card when,
 * and "Cancel" until its time — a person who timed a birthday card for next week may change their mind.
 * The server deletes a card only while it waits; one the job is sending at that moment goes out,
 * and the list says so.
 */
export function ScheduledECards({
  cards,
  categoryLabel,
}: {
  cards: Resource<ECardList>;
  categoryLabel: (code: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const [cancelling, setCancelling] = useState<ScheduledCard | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ variant: 'success' | 'warning' | 'error'; text: string } | null>(
    null,
  );
  const list = cards.state.status === 'ready' ? cards.state.data.cards : [];
  const when = (card: ScheduledCard) =>
    new Date(card.sendAt).toLocaleString(i18n.language, { dateStyle: 'long', timeStyle: 'short' });

  async function cancel(card: ScheduledCard) {
    setBusy(true);
    try {
      await eCardApi(api).cancel(card.id);
      setNotice({ variant: 'success', text: t('e-card.scheduledList.cancelled', { to: card.to }) });
    } catch (error) {
      setNotice(refusedCancelNotice(error, card, t));
    } finally {
      setBusy(false);
      setCancelling(null);
      cards.reload();
    }
  }

  if (list.length === 0 && !notice) return null;
  return (
    <section className="e-card-scheduled" aria-labelledby="e-card-scheduled-title">
      <h2 id="e-card-scheduled-title">{t('e-card.scheduledList.heading')}</h2>
      {notice && (
        <Alert variant={notice.variant} onClose={() => setNotice(null)} closeLabel={t('shell.close')}>
          <p>{notice.text}</p>
        </Alert>
      )}
      {list.length > 0 && (
        <ul className="plain-list e-card-scheduled-list">
          {list.map((card) => (
            <li key={card.id} className="e-card-scheduled-card">
              <div>
                <strong>{t('e-card.scheduledList.to', { to: card.to })}</strong>
                <span className="e-card-scheduled-email">{card.toEmail}</span>
                <span>
                  {t('e-card.scheduledList.when', {
                    when: when(card),
                    category: categoryLabel(card.template.category),
                  })}
                </span>
              </div>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setCancelling(card)}
                aria-label={t('e-card.scheduledList.cancelFor', { to: card.to, when: when(card) })}
              >
                {t('e-card.scheduledList.cancel')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {cancelling && (
        <Dialog
          title={t('e-card.scheduledList.confirmTitle')}
          onClose={() => setCancelling(null)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setCancelling(null)}>
                {t('e-card.scheduledList.keep')}
              </button>
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => void cancel(cancelling)}
              >
                {t('e-card.scheduledList.confirm')}
              </button>
            </>
          }
        >
          <p>{t('e-card.scheduledList.confirmText', { to: cancelling.to, when: when(cancelling) })}</p>
        </Dialog>
      )}
    </section>
  );
}

/**
 * Why a card was not cancelled, where the list knows (another tab acted first): sent meanwhile,
 * cancelled already there (unknown now: 404), or given up after failed attempts; else the generic error.
 */
function refusedCancelNotice(
  error: unknown,
  card: ScheduledCard,
  t: ReturnType<typeof useTranslation>['t'],
): { variant: 'warning' | 'error'; text: string } {
  const code = error instanceof ApiError ? error.code : undefined;
  if (code === 'e_card_already_sent')
    return { variant: 'warning', text: t('e-card.scheduledList.alreadySent', { to: card.to }) };
  if (code === 'not_found')
    return { variant: 'warning', text: t('e-card.scheduledList.alreadyCancelled', { to: card.to }) };
  if (code === 'e_card_not_waiting')
    return { variant: 'warning', text: t('e-card.scheduledList.notWaiting', { to: card.to }) };
  return { variant: 'error', text: t('shell.genericError') };
}
