import type { ReactNode } from 'react';

export type AlertVariant = 'warning' | 'success' | 'error' | 'info' | 'primary';

export function Alert({
  variant,
  children,
  onClose,
  closeLabel,
}: {
  variant: AlertVariant;
  children: ReactNode;
  onClose?: () => void;
  closeLabel?: string;
}) {
  return (
    <div className={`alert alert-${variant}`} role={variant === 'error' ? 'alert' : 'status'}>
      <div className="alert-body">{children}</div>
      {onClose && (
        <button type="button" className="alert-close" onClick={onClose} aria-label={closeLabel}>
          ×
        </button>
      )}
    </div>
  );
}
