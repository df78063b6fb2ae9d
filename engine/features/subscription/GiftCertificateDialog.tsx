import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import type { GiftCertificate } from '../../../schemas/generated/subscription-page';
import { usePortal } from '../../core/PortalContext';
import { openFile } from '../../account/useFileDownload';
import { Dialog } from '../../ui/Dialog';
import { useResource } from '../../account/resource';
import { noEntries, ResourceView } from '../../account/ResourceView';

/**
 * §2 "gift-certificate modal": the certificates of a gift subscription with their downloads. A
 * certificate's URL works once and only with this session, so it is fetched
 * through the API client and shown in a new tab, and the list is asked again for fresh URLs.
 */
export function GiftCertificateDialog({
  subscriptionId,
  onClose,
}: {
  subscriptionId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [downloadFailed, setDownloadFailed] = useState(false);
  const certificates = useResource(`/subscriptions/${subscriptionId}/gift-certificates`, (client) =>
    client.get<GiftCertificate[]>(`/subscriptions/${encodeURIComponent(subscriptionId)}/gift-certificates`),
  );
  const download = async (url: string) => {
    // Opened synchronously, before the fetch, so the popup blocker lets it through.
    const tab = window.open('', '_blank');
    try {
      await openFile(api, url, tab);
    } catch {
      tab?.close();
      setDownloadFailed(true);
    }
    certificates.reload();
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
      {downloadFailed && <p role="alert">{t('shell.genericError')}</p>}
      <ResourceView
        resource={certificates}
        errorKey="shell.genericError"
        emptyKey="subscription.giftNone"
        isEmpty={noEntries}
      >
        {(items) => (
          <ul className="plain-list">
            {items.map((item, index) => (
              <li key={index}>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => void download(item.download.url)}
                >
                  {t('subscription.giftDownload', { title: item.title })}
                </button>
              </li>
            ))}
          </ul>
        )}
      </ResourceView>
    </Dialog>
  );
}
export default GiftCertificateDialog;
