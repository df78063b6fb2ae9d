import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { useLocation, useParams } from 'react-router';
import type { ManagerAppointmentInfo } from '../../../schemas/generated/licenses';
import { usePortal } from '../../core/PortalContext';
import { Loading } from '../../ui/Loading';
import { EmailText } from './EmailText';
import { useLinkInfo } from './useLinkInfo';
import { licensesApi } from './licensesApi';
import { LinkOutcomeNotice } from './LinkOutcomeNotice';

/**
 * /subscriptions/{id}/license-managers/{appointmentId}/confirm?token=… (account-flows.md §2
 * "Licences", §6), anonymous: the link of the licence-manager
 * appointment e-mail. Designed like the accept-licence page: it shows what is being confirmed (the
 * subscription and the address) and a button; only the button (POST) makes the address licence
 * manager — opening the link (GET) changes nothing, so a mail scanner following links confirms
 * nothing. Outcomes as on the accept page (§8): not found, invalid or replaced link, already
 * confirmed, too many attempts, error with try again.
 */
export default function ConfirmManagerScreen() {
  const { t } = useTranslation();
  const { id = '', appointmentId = '' } = useParams();
  const token = new URLSearchParams(useLocation().search).get('token') ?? '';
  const { api } = usePortal();
  const { info, outcome, setOutcome, refusal, refuse, tryAgain } = useLinkInfo<
    ManagerAppointmentInfo,
    'confirmed'
  >(token, () => licensesApi(api).appointmentInfo(id, appointmentId, token), [id, appointmentId]);
  const [sending, setSending] = useState(false);

  async function confirm() {
    setSending(true);
    try {
      await licensesApi(api).confirmManager(id, appointmentId, token);
      setOutcome('confirmed');
    } catch (caught) {
      refuse(caught);
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="account-change confirm-license-manager" aria-labelledby="confirm-manager-title">
      <h1 id="confirm-manager-title">{t('multi-user-licenses.confirmManager.heading')}</h1>
      {outcome === 'loading' && <Loading />}
      {outcome !== null && outcome !== 'loading' && (
        <LinkOutcomeNotice
          outcome={outcome === 'confirmed' ? 'done' : outcome}
          email={info?.email ?? ''}
          texts={{
            done: 'multi-user-licenses.confirmManager.done',
            notFound: 'multi-user-licenses.confirmManager.notFound',
            invalidLink: 'multi-user-licenses.confirmManager.invalidLink',
            alreadyUsed: 'multi-user-licenses.confirmManager.alreadyConfirmed',
          }}
          onTryAgain={tryAgain}
          refusal={refusal}
        />
      )}
      {outcome === null && info && (
        <div className="confirm-license-manager-details">
          <p>
            {t('multi-user-licenses.confirmManager.intro', {
              publication: info.publicationName,
              orderNumber: info.orderNumber,
            })}
          </p>
          <dl className="facts">
            {(info.firstName || info.lastName1) && (
              <>
                <dt>{t('multi-user-licenses.confirmManager.name')}</dt>
                <dd>{[info.firstName, info.lastName1].filter(Boolean).join(' ')}</dd>
              </>
            )}
            <dt>{t('multi-user-licenses.field.email')}</dt>
            <dd>
              <EmailText email={info.email} />
            </dd>
          </dl>
          <p className="muted">{t('multi-user-licenses.confirmManager.note')}</p>
          <div className="form-actions">
            <button type="button" className="button" disabled={sending} onClick={() => void confirm()}>
              {t('multi-user-licenses.confirmManager.submit')}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
