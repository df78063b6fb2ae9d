import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GiftCertificate } from '../../../schemas/generated/subscription-page';
import { usePortal } from '../../core/PortalContext';
import { openFile } from '../orders/useFileDownload';
import { Dialog } from '../../ui/Dialog';
import { Loading } from '../../ui/Loading';

/**
 * §2 "gift-certificate modal": the certificates of a gift subscription with their downloads. A
 * certificate's URL works once and only with this session (issue 10, finding 8), so it is fetched
 * through the API client and shown in a new tab, and the list is asked again for fresh URLs.
 */
export function GiftCertificateDialog({ subscriptionId, onClose }: { subscriptionId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [state, setState] = useState<{ status: 'loading' | 'failed' | 'ready'; items: GiftCertificate[] }>({ status: 'loading', items: [] });
  const [round, setRound] = useState(0);
  useEffect(() => {
    api
      .get<GiftCertificate[]>(`/subscriptions/${encodeURIComponent(subscriptionId)}/gift-certificates`)
      .then((items) => setState({ status: 'ready', items }))
      .catch(() => setState({ status: 'failed', items: [] }));
  }, [api, subscriptionId, round]);
  const download = async (url: string) => {
    // Opened synchronously, before the fetch, so the popup blocker lets it through.
    const tab = window.open('', '_blank');
    try {
      await openFile(api, url, tab);
    } catch {
      tab?.close();
      setState({ status: 'failed', items: [] });
    }
    setRound((n) => n + 1);
  };
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
        {state.items.map((item, index) => (
          <li key={index}>
            <button type="button" className="button button-secondary" onClick={() => void download(item.download.url)}>
              {t('subscription.giftDownload', { title: item.title })}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
