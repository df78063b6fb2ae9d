import { useState } from 'react';
import { usePortal } from '../../core/PortalContext';
import { useScreenSettings } from './capabilityContext';

export type DownloadOutcome = 'started' | 'failed' | null;

/**
 * Downloads of delivered issues and purchase orders (portal-core.md §2): a waiting state while the
 * server makes the file URL, then the URL opens (in a new tab when the tenant's download config
 * says so), then the "download started" or "download not available" dialog.
 */
export function useFileDownload() {
  const { api } = usePortal();
  const settings = useScreenSettings();
  const [waiting, setWaiting] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<DownloadOutcome>(null);

  async function download(id: string, request: () => Promise<{ url: string }>) {
    // A tab opened synchronously keeps the browser's popup blocker out of the way.
    const tab = settings.download?.openInNewTab ? window.open('', '_blank') : null;
    setWaiting(id);
    try {
      const { url } = await request();
      if (tab) tab.location.href = url;
      else window.location.assign(url);
      setOutcome('started');
    } catch {
      tab?.close();
      setOutcome('failed');
    } finally {
      setWaiting(null);
    }
  }

  return {
    waiting,
    outcome,
    dismiss: () => setOutcome(null),
    fail: () => setOutcome('failed'),
    issue: (subscriptionId: string, issue: string) =>
      download(`${subscriptionId}/${issue}`, () => api.post<{ url: string }>(`/subscriptions/${encodeURIComponent(subscriptionId)}/delivered-issues/download`, { issue })),
    purchaseOrder: (id: string, article: string) =>
      download(id, () =>
        api.get<{ url: string }>(`/purchase-orders/${encodeURIComponent(id)}/download?distributionArticleNumber=${encodeURIComponent(article)}`),
      ),
  };
}
