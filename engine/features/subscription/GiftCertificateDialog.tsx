import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GiftCertificate } from '../../../schemas/generated/subscription-page';
import { usePortal } from '../../core/PortalContext';
import { Dialog } from '../../ui/Dialog';
import { Loading } from '../../ui/Loading';

/** §2 "gift-certificate modal": the certificates of a gift subscription with their download links. */
export function GiftCertificateDialog({ subscriptionId, onClose }: { subscriptionId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [state, setState] = useState<{ status: 'loading' | 'failed' | 'ready'; items: GiftCertificate[] }>({ status: 'loading', items: [] });
  useEffect(() => {
    api
      .get<GiftCertificate[]>(`/subscriptions/${encodeURIComponent(subscriptionId)}/gift-certificates`)
      .then((items) => setState({ status: 'ready', items }))
      .catch(() => setState({ status: 'failed', items: [] }));
  }, [api, subscriptionId]);
  return (
    <Dialog
      title={t('subscription.giftHeading')}
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('shell.close')}
        </button>
      }
    >
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <p>{t('shell.genericError')}</p>}
      {state.status === 'ready' && state.items.length === 0 && <p>{t('subscription.giftNone')}</p>}
      <ul className="plain-list">
        {state.items.map((item) => (
          <li key={item.download.url}>
            <a href={item.download.url} target="_blank" rel="noopener noreferrer">
              {t('subscription.giftDownload', { title: item.title })}
            </a>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
