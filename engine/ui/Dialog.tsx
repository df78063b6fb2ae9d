import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> element: focus moves into it, Escape closes it, the page
 * behind is inert, and focus returns to what opened it. `actions` are its buttons; `onClose` runs for Escape and for any close button.
 */
export function Dialog({
  title,
  children,
  actions,
  onClose,
  variant = 'info',
}: {
  title: string;
  children?: ReactNode;
  actions: ReactNode;
  onClose: () => void;
  variant?: 'info' | 'success' | 'error';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useLayoutEffect(() => {
    const dialog = ref.current;
    // The control that opened the dialog gets the focus back when it closes (WAI-ARIA's modal
    // dialog pattern): the dialog is removed with its owner's state, so the browser's own return
    // of focus on close() would find it detached.
    const opener = document.activeElement;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${variant}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="dialog-actions">{actions}</div>
    </dialog>
  );
}
