import { formatMoney } from '../../domain/money';
import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { PaymentHistoryItem } from '../../../schemas/generated/subscription-page';
import { usePortal } from '../../core/PortalContext';
import { can, type CapabilityContext } from '../../domain/capabilities';
import { invoiceFileName, paymentStatusTone, xRechnungFileName } from '../../domain/paymentHistory';
import { Badge } from '../../ui/Badge';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { HistoryPager } from './HistoryPager';
import { formatDate } from '../../domain/dates';
import { dataOf } from '../../account/resource';
import { noEntries, ResourceView } from '../../account/ResourceView';
import { useTenantSettings } from '../../account/capabilityContext';
import { InvoiceRequestDialog } from '../../account/InvoiceRequestDialog';
import { useSaveFile } from '../../account/useSaveFile';
import { usePagedList } from './useSubscription';

/**
 * Invoices (payment history) of §2: pages of 10, zero-based, one neighbour page each side; per
 * entry the status badge (A green, T orange, O indigo, U gray), the PDF download saved as
 * `<documentId>.pdf` and the invoice request, each by its capability rule; beside the PDF, the
 * XRechnung (docs/invoices.md "E-invoices") where the server says the invoices go to a business and
 * the tenant offers it.
 */
export function PaymentHistory({
  subscription,
  ctx,
}: {
  subscription: Subscription;
  ctx: CapabilityContext;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const saveFile = useSaveFile();
  const settings = useTenantSettings();
  const path = `/subscriptions/${encodeURIComponent(subscription.id)}/payment-history`;
  const { page, setPage, resource } = usePagedList<PaymentHistoryItem>(path);
  const [requesting, setRequesting] = useState<PaymentHistoryItem | null>(null);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const canDownload = can('invoiceDownload', subscription, ctx);
  const canRequest = can('invoiceRequest', subscription, ctx);

  async function download(item: PaymentHistoryItem, form: 'pdf' | 'xrechnung' = 'pdf') {
    const invoicePath = `/subscriptions/${encodeURIComponent(subscription.id)}/invoices/${encodeURIComponent(item.id)}`;
    const documentId = item.documentId ?? item.id;
    try {
      await (form === 'pdf'
        ? saveFile(`${invoicePath}/download`, invoiceFileName(documentId))
        : saveFile(`${invoicePath}/xrechnung`, xRechnungFileName(documentId)));
    } catch {
      setDownloadFailed(true);
    }
  }

  const money = (item: PaymentHistoryItem) => formatMoney(item.amount, item.currency, i18n.language);

  return (
    <div className="paged-list">
      <ResourceView
        resource={resource}
        errorKey="subscription.listError"
        emptyKey="subscription.noPayments"
        isEmpty={(data) => noEntries(data.items)}
        keepWhileLoading
      >
        {(data) => (
          <ul
            className="history-list"
            aria-busy={resource.state.status === 'loading'}
            aria-label={t('subscription.paymentPageLabel', { page: data.page + 1, pages: data.totalPages })}
          >
            {data.items.map((item) => (
              <li key={item.id} className="history-item">
                <div className="history-main">
                  <span className="history-date">{formatDate(item.date, i18n.language)}</span>
                  <span className="history-amount">{money(item)}</span>
                  <Badge tone={paymentStatusTone(item.invoiceStatusCode)}>
                    {t(`subscription.paymentStatus.${item.invoiceStatusCode}`)}
                  </Badge>
                </div>
                <div className="history-meta muted">
                  {item.invoiceNumber && t('subscription.invoiceNumber', { number: item.invoiceNumber })}
                  {settings.paymentHistory?.showExternalDocumentNumber &&
                    item.externalDocumentNumber &&
                    ` · ${item.externalDocumentNumber}`}
                </div>
                <div className="history-actions">
                  {canDownload && item.documentId && (
                    <button type="button" className="link-button" onClick={() => void download(item)}>
                      {t('subscription.downloadInvoice', { number: item.invoiceNumber ?? item.id })}
                    </button>
                  )}
                  {canDownload && item.documentId && item.xRechnung && (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => void download(item, 'xrechnung')}
                    >
                      {t('subscription.downloadXRechnung', { number: item.invoiceNumber ?? item.id })}
                    </button>
                  )}
                  {canRequest && item.invoiceNumber && (
                    <button type="button" className="link-button" onClick={() => setRequesting(item)}>
                      {t('subscription.requestInvoice', { number: item.invoiceNumber })}
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </ResourceView>
      <HistoryPager
        navKey="subscription.paymentPager"
        page={page}
        totalPages={dataOf(resource.state)?.totalPages ?? 1}
        onPage={setPage}
      />
      {requesting && (
        <InvoiceRequestDialog
          invoiceNumber={requesting.invoiceNumber!}
          onClose={() => setRequesting(null)}
          send={() =>
            api.post<{ status: string }>(
              `/subscriptions/${encodeURIComponent(subscription.id)}/invoices/request?invoiceNumber=${encodeURIComponent(requesting.invoiceNumber!)}&externalDocumentNumber=${encodeURIComponent(requesting.externalDocumentNumber ?? '')}`,
            )
          }
        />
      )}
      {downloadFailed && <ErrorDialog onClose={() => setDownloadFailed(false)} />}
    </div>
  );
}
