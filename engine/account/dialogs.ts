/**
 * The account kit's dialogs in one module: a screen that loads them when one opens
 * (engine/features/orders/dialogs.tsx) has one import to make for the one file they share
 * (account-dialogs, cli/build/engineBuild.ts), not one per dialog.
 */
export { Dialog } from '../ui/Dialog';
export { ErrorDialog } from '../ui/ErrorDialog';
export { DownloadDialogs } from './DownloadDialogs';
export { InvoiceRequestDialog } from './InvoiceRequestDialog';
