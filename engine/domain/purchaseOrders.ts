/**
 * Purchase-order rules (portal-core.md §2 "Purchase order card", §3, §4).
 */
import type { BadgeToneName } from './paymentHistory';
import { isFeatureOn, type FeatureSwitches } from './tenantFeatures';

export type PurchaseOrderInvoiceStatus = 1 | 2 | 3;

/** §3: invoiceStatus 1 open, 2 paid, 3 overpaid. */
export const INVOICE_STATUS_NAMES: Record<PurchaseOrderInvoiceStatus, 'open' | 'paid' | 'overpaid'> = {
  1: 'open',
  2: 'paid',
  3: 'overpaid',
};

/** §2: invoice status badge — open red, paid green, overpaid orange. */
export function invoiceStatusTone(status: PurchaseOrderInvoiceStatus): BadgeToneName {
  return status === 1 ? 'error' : status === 2 ? 'success' : 'warning';
}

export type DownloadStatus = 'unknown' | 'not_supported' | 'not_found' | 'found' | 'expired';

/** §2: "a download button only when the tenant supports downloads and downloadStatus is found or expired (expired downloads are disabled)". */
export function purchaseOrderDownload(
  tenant: FeatureSwitches,
  downloadStatus: DownloadStatus,
): 'hidden' | 'enabled' | 'disabled' {
  if (!isFeatureOn(tenant, 'purchase-order-download')) return 'hidden';
  if (downloadStatus === 'found') return 'enabled';
  if (downloadStatus === 'expired') return 'disabled';
  return 'hidden';
}

/** §2: "a request-invoice action only if the role is ordering party" (and the tenant offers invoice requests). */
export function canRequestPurchaseOrderInvoice(
  tenant: FeatureSwitches,
  po: { role: string; invoiceNumber: string | null },
): boolean {
  return isFeatureOn(tenant, 'invoice-request') && po.role === 'AG' && po.invoiceNumber !== null;
}

/** Delivered issues: a download is possible only while the file is found (§4 download statuses). */
export function issueDownloadState(downloadStatus: DownloadStatus): 'enabled' | 'disabled' | 'hidden' {
  if (downloadStatus === 'found') return 'enabled';
  if (downloadStatus === 'expired') return 'disabled';
  return 'hidden';
}
