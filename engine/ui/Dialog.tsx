import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> element: focus moves into it, Escape closes it, the page
 * behind is inert. `actions` are its buttons; `onClose` runs for Escape and for any close button.
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
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
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
