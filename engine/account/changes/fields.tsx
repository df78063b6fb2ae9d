import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { charsOver, TooLongError, type LengthLimit } from '../../ui/lengthLimit';

/** aria-describedby of a field: its hint and its error, when there are any. */
const describedBy = (id: string, hint: unknown, error: unknown, extra?: string) =>
  [extra ?? '', hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

function Label({ id, label, required }: { id: string; label: string; required?: boolean }) {
  return (
    <label htmlFor={id}>
      {label}
      {required && <span aria-hidden="true"> *</span>}
    </label>
  );
}

function Notes({
  id,
  hint,
  error,
  over,
}: {
  id: string;
  hint?: ReactNode;
  error?: string;
  over?: { max: number; count: number };
}) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="field-note muted">
          {hint}
        </p>
      )}
      {over ? (
        <TooLongError id={`${id}-error`} max={over.max} count={over.count} />
      ) : (
        error && (
          <p id={`${id}-error`} className="form-error">
            {error}
          </p>
        )
      )}
    </>
  );
}

/**
 * A labelled input of the account change forms (engine/ui/FormField with a hint): the hint (a
 * limit, the pointer to the contact form for a locked field) and the error are announced with it.
 * `required` stars the label (§5 "Required fields are starred") without the browser's own check;
 * the forms check with the rules of engine/domain. A length rule is `maxChars`
 * (engine/ui/lengthLimit.tsx): said at the field while typing, never cut by the browser.
 */
export function InputField({
  label,
  hint,
  error,
  required,
  className,
  describedById,
  maxChars,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'maxLength'> &
  LengthLimit & {
    label: string;
    hint?: ReactNode;
    error?: string;
    /** A note outside the field that concerns it too (a group's "locked" pointer). */
    describedById?: string;
  }) {
  const id = useId();
  const over =
    charsOver(input.value, maxChars) > 0 ? { max: maxChars!, count: String(input.value).length } : undefined;
  const shownError = over ? 'too_long' : error;
  return (
    <div className={['form-field', className].filter(Boolean).join(' ')}>
      <Label id={id} label={label} required={required} />
      <input
        id={id}
        aria-required={required || undefined}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy(id, hint, shownError, describedById)}
        {...input}
      />
      <Notes id={id} hint={hint} error={error} over={over} />
    </div>
  );
}

/** A labelled select with an optional hint and error. */
export function SelectField({
  label,
  hint,
  error,
  required,
  className,
  describedById,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  hint?: ReactNode;
  error?: string;
  describedById?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className={['form-field', className].filter(Boolean).join(' ')}>
      <Label id={id} label={label} required={required} />
      <select
        id={id}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error, describedById)}
        {...select}
      >
        {children}
      </select>
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
}
