import { useState } from 'react';
import type { ApiClient } from '../core/apiClient';
import { usePortal } from '../core/PortalContext';
import { useTenantSettings } from './capabilityContext';
import type { DownloadOutcome } from './outcomes';
import type { DeliveredIssuesPage } from '../../schemas/generated/subscription-page';

/**
 * Downloads of delivered issues and purchase orders (portal-core.md §2): a waiting state while the
 * server makes the file URL, then the file, then the "download started" or "download not available"
 * dialog. §2 says "redirect to the returned file url"; the URL now serves its file once and only to
 * the session that asked (a bare link would serve anyone holding it), so the file is
 * fetched through the API client and shown in a new tab when the tenant's download config says so,
 * else saved under its own name.
 */
export function useFileDownload() {
  const { api } = usePortal();
  const settings = useTenantSettings();
  const [waiting, setWaiting] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<DownloadOutcome | null>(null);

  async function download(id: string, request: () => Promise<{ url: string }>) {
    // A tab opened synchronously keeps the browser's popup blocker out of the way.
    const tab = settings.download?.openInNewTab ? window.open('', '_blank') : null;
    setWaiting(id);
    try {
      const { url } = await request();
      await openFile(api, url, tab);
      setOutcome('download:started');
    } catch {
      tab?.close();
      setOutcome('download:failed');
    } finally {
      setWaiting(null);
    }
  }

  const issue = (subscriptionId: string, issue: string) =>
    download(`${subscriptionId}/${issue}`, () =>
      api.post<{ url: string }>(
        `/subscriptions/${encodeURIComponent(subscriptionId)}/delivered-issues/download`,
        { issue },
      ),
    );

  return {
    waiting,
    outcome,
    dismiss: () => setOutcome(null),
    issue,
    /** A subscription card's download (§2 "Orders page"): its newest delivered issue that can be downloaded. */
    newestIssue: async (subscriptionId: string) => {
      try {
        const page = await api.get<DeliveredIssuesPage>(
          `/subscriptions/${encodeURIComponent(subscriptionId)}/delivered-issues?page=0`,
        );
        const newest = page.items.find((i) => i.downloadStatus === 'found');
        if (newest) await issue(subscriptionId, newest.issue);
        else setOutcome('download:failed');
      } catch {
        setOutcome('download:failed');
      }
    },
    /** Whether a download of this subscription's is under way (its card's button waits). */
    waitingFor: (subscriptionId: string) => waiting?.startsWith(`${subscriptionId}/`) ?? false,
    purchaseOrder: (id: string, article: string) =>
      download(id, () =>
        api.get<{ url: string }>(
          `/purchase-orders/${encodeURIComponent(id)}/download?distributionArticleNumber=${encodeURIComponent(article)}`,
        ),
      ),
  };
}

/** Fetches a download URL with the session and shows the file in `tab`, or saves it when there is none. */
export async function openFile(api: ApiClient, url: string, tab: Window | null): Promise<void> {
  const { blob, fileName } = await api.getFile(url);
  const objectUrl = URL.createObjectURL(blob);
  if (tab) {
    tab.location.href = objectUrl;
  } else {
    const anchor = document.createElement('a');
    anchor.href = objectUrl;
    anchor.download = fileName ?? 'download.pdf';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
  }
  // The tab or the save has read the bytes by then; the object URL would otherwise live as long as the page.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}
