import { lazy, Suspense, type ComponentType } from 'react';

/**
 * The orders page's dialogs (portal-core.md §2: a download's outcome, the business partner's
 * address, the invoice request, an error) load when one opens, not with the page: most visits open
 * none (docs/testing.md "Speed and size"). Until its code is there the dialog shows nothing; a
 * dialog is rendered only while it is open, so each is loaded by the first opening.
 */
function loadedWhenOpened<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function DialogWhenOpened(props: P) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

export const Dialog = loadedWhenOpened(async () => (await import('../../ui/Dialog')).Dialog);
export const ErrorDialog = loadedWhenOpened(async () => (await import('../../ui/ErrorDialog')).ErrorDialog);
export const DownloadDialogs = loadedWhenOpened(
  async () => (await import('../../account/DownloadDialogs')).DownloadDialogs,
);
export const InvoiceRequestDialog = loadedWhenOpened(
  async () => (await import('../../account/InvoiceRequestDialog')).InvoiceRequestDialog,
);
