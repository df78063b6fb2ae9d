import { useState } from 'react';
import { useTranslation } from '../core/translation';
import { Dialog } from '../ui/Dialog';
import { ErrorDialog } from '../ui/ErrorDialog';
import { INVOICE_OUTCOMES, invoiceFailureOf, invoiceOutcomeOf, type InvoiceOutcome } from './outcomes';
import { OutcomeDialog } from './DownloadDialogs';

type Step = { kind: 'confirm' } | { kind: 'sending' } | { kind: 'answered'; outcome: InvoiceOutcome };

/**
 * Request invoice (portal-core.md §2, §4): a confirm dialog, then the call, then a dialog for its
 * named outcome (engine/account/outcomes.ts) — success, forwarded, not_relevant; processing for
 * the second request of a day (§9 "once per day"); the generic error dialog otherwise.
 */
export function InvoiceRequestDialog({
  invoiceNumber,
  send,
  onClose,
}: {
  invoiceNumber: string;
  send: () => Promise<{ status: string }>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'confirm' });

  async function confirm() {
    setStep({ kind: 'sending' });
    try {
      setStep({ kind: 'answered', outcome: invoiceOutcomeOf(await send()) });
    } catch (error) {
      setStep({ kind: 'answered', outcome: invoiceFailureOf(error) });
    }
  }

  if (step.kind === 'answered') {
    if (step.outcome === 'invoice:failed') return <ErrorDialog onClose={onClose} />;
    return (
      <OutcomeDialog texts={INVOICE_OUTCOMES[step.outcome]} values={{ invoiceNumber }} onClose={onClose} />
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
