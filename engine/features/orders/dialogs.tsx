import { loadedWhenShown } from './loadedWhenShown';

/**
 * The orders page's dialogs (portal-core.md §2: a download's outcome, the business partner's
 * address, the invoice request, an error) load when one opens, not with the page: most visits open
 * none. A dialog is rendered only while it is open, so each is loaded by the first opening.
 */
const dialogs = () => import('../../account/dialogs');

export const Dialog = loadedWhenShown(async () => (await dialogs()).Dialog);
export const ErrorDialog = loadedWhenShown(async () => (await dialogs()).ErrorDialog);
export const DownloadDialogs = loadedWhenShown(async () => (await dialogs()).DownloadDialogs);
export const InvoiceRequestDialog = loadedWhenShown(async () => (await dialogs()).InvoiceRequestDialog);
