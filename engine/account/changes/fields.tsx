import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

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

function Notes({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="field-note muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * A labelled input of the account change forms (engine/ui/FormField with a hint): the hint (a
 * limit, the pointer to the contact form for a locked field) and the error are announced with it.
 * `required` stars the label (§5 "Required fields are starred") without the browser's own check;
 * the forms check with the rules of engine/domain.
 */
export function InputField({ label, hint, error, required, className, describedById, ...input }: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: ReactNode;
  error?: string;
  /** A note outside the field that concerns it too (a group's "locked" pointer). */
  describedById?: string;
}) {
  const id = useId();
  return (
    <div className={['form-field', className].filter(Boolean).join(' ')}>
      <Label id={id} label={label} required={required} />
      <input
        id={id}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error, describedById)}
        {...input}
      />
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A labelled select with an optional hint and error. */
export function SelectField({ label, hint, error, required, className, describedById, children, ...select }: SelectHTMLAttributes<HTMLSelectElement> & {
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
