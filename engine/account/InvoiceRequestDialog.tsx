import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../core/apiClient';
import { Dialog } from '../ui/Dialog';
import { ErrorDialog } from '../ui/ErrorDialog';

type Step = { kind: 'confirm' } | { kind: 'sending' } | { kind: 'done'; status: string } | { kind: 'error'; processing: boolean };

/**
 * Request invoice (portal-core.md §2, §4): a confirm dialog, then the call, then a success dialog
 * titled by the returned status (success, forwarded, not_relevant), or an error dialog — the second
 * request of a day is refused with status processing (§9 "once per day").
 */
export function InvoiceRequestDialog({ invoiceNumber, send, onClose }: {
  invoiceNumber: string;
  send: () => Promise<{ status: string }>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'confirm' });

  async function confirm() {
    setStep({ kind: 'sending' });
    try {
      const result = await send();
      setStep({ kind: 'done', status: result.status });
    } catch (error) {
      setStep({ kind: 'error', processing: error instanceof ApiError && error.code === 'processing' });
    }
  }

  if (step.kind === 'error') {
    return step.processing ? (
      <Dialog
        title={t('account.invoiceStatus.processing')}
        variant="error"
        onClose={onClose}
        actions={
          <button type="button" className="button" onClick={onClose}>
            {t('shell.close')}
          </button>
        }
      >
        <p>{t('account.invoiceOncePerDay')}</p>
      </Dialog>
    ) : (
      <ErrorDialog onClose={onClose} />
    );
  }
  if (step.kind === 'done') {
    return (
      <Dialog
        title={t(`account.invoiceStatus.${step.status}`)}
        variant="success"
        onClose={onClose}
        actions={
          <button type="button" className="button" onClick={onClose}>
            {t('shell.close')}
          </button>
        }
      >
        <p>{t(`account.invoiceStatusText.${step.status}`, { invoiceNumber })}</p>
      </Dialog>
    );
  }
  return (
    <Dialog
      title={t('account.requestInvoiceTitle')}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('account.cancel')}
          </button>
          <button type="button" className="button" onClick={confirm} disabled={step.kind === 'sending'}>
            {t('account.requestInvoiceConfirm')}
          </button>
        </>
      }
    >
      <p>{t('account.requestInvoiceQuestion', { invoiceNumber })}</p>
    </Dialog>
  );
}
