import { ApiError } from '../core/apiClient';

/**
 * The named outcomes of the account kit's actions (Ghost Portal's `signin:failed`), each mapped to
 * its texts here and nowhere else, as engine/features/login/loginErrors.ts does for sign-in.
 * A dialog shows `titleKey` over `textKey`; `tone` picks its colour.
 */
export interface OutcomeTexts {
  titleKey: string;
  textKey: string;
  tone: 'success' | 'error';
}

/** Request invoice (portal-core.md §2, §4 "Invoice request outcomes", §9 "once per day"). */
export type InvoiceOutcome =
  'invoice:success' | 'invoice:forwarded' | 'invoice:not_relevant' | 'invoice:processing' | 'invoice:failed';

export const INVOICE_OUTCOMES: Record<InvoiceOutcome, OutcomeTexts> = {
  'invoice:success': {
    titleKey: 'account.invoiceStatus.success',
    textKey: 'account.invoiceStatusText.success',
    tone: 'success',
  },
  'invoice:forwarded': {
    titleKey: 'account.invoiceStatus.forwarded',
    textKey: 'account.invoiceStatusText.forwarded',
    tone: 'success',
  },
  'invoice:not_relevant': {
    titleKey: 'account.invoiceStatus.not_relevant',
    textKey: 'account.invoiceStatusText.not_relevant',
    tone: 'success',
  },
  // The second request of a day: the server answers 409 `processing`.
  'invoice:processing': {
    titleKey: 'account.invoiceStatus.processing',
    textKey: 'account.invoiceOncePerDay',
    tone: 'error',
  },
  // §8: anything else is the generic error.
  'invoice:failed': { titleKey: 'shell.errorTitle', textKey: 'shell.genericError', tone: 'error' },
};

const INVOICE_STATUSES = new Set(['success', 'forwarded', 'not_relevant', 'processing']);

/** The outcome of an answered request: its status (success, forwarded, not_relevant; processing from older servers). */
export function invoiceOutcomeOf(result: { status: string }): InvoiceOutcome {
  return INVOICE_STATUSES.has(result.status)
    ? (`invoice:${result.status}` as InvoiceOutcome)
    : 'invoice:failed';
}

/** The outcome of a refused or failed request. */
export function invoiceFailureOf(error: unknown): InvoiceOutcome {
  return error instanceof ApiError && error.code === 'processing' ? 'invoice:processing' : 'invoice:failed';
}

/** Downloads of issues and purchase orders (§2 dialogs "download started" and "download error"). */
export type DownloadOutcome = 'download:started' | 'download:failed';

export const DOWNLOAD_OUTCOMES: Record<DownloadOutcome, OutcomeTexts> = {
  'download:started': {
    titleKey: 'account.downloadStartedTitle',
    textKey: 'account.downloadStarted',
    tone: 'success',
  },
  'download:failed': {
    titleKey: 'account.downloadFailedTitle',
    textKey: 'account.downloadNotAvailable',
    tone: 'error',
  },
};
