/**
 * What the licences page's manager list and licence object cards share (account-flows.md §2
 * "Licences"): a person's name, a person's row, and the confirmation before removing one.
 */
import type { ReactNode } from 'react';
import { useTranslation } from '../../core/translation';
import { Dialog } from '../../ui/Dialog';
import { EmailText } from './EmailText';

/** First and last name, as far as there are any (empty when neither). */
export const personName = (p: { firstName?: string | null; lastName1?: string | null }) =>
  [p.firstName, p.lastName1].filter(Boolean).join(' ');

/**
 * A person's row: the name (with its status badge beside it, when there is one), the e-mail
 * address, a note under it, then the row's buttons.
 */
export function LicensePerson({
  name,
  badge,
  email,
  note,
  testId,
  children,
}: {
  name: string;
  badge?: ReactNode;
  email: string | null | undefined;
  note?: ReactNode;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <li className="license-person" data-testid={testId}>
      {badge ? (
        <span className="license-name">
          <strong>{name}</strong> {badge}
        </span>
      ) : (
        <strong>{name}</strong>
      )}
      {email && <EmailText email={email} />}
      {note && <span className="muted">{note}</span>}
      {children}
    </li>
  );
}

/**
 * "Remove …?" with cancel and the danger button (§4): the dialog closes first, then the action
 * runs, its notice or refusal shown by the page.
 */
export function ConfirmRemoval({
  title,
  text,
  confirmLabel,
  onCancel,
  onConfirm,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onCancel}>
            {t('multi-user-licenses.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              onCancel();
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <p>{text}</p>
    </Dialog>
  );
}
