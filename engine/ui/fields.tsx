import { useId, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { charsOver, TooLongError, type LengthLimit } from './lengthLimit';

/** aria-describedby of a field: its hint and its error, when there are any. */
const describedBy = (id: string, hint?: string, error?: string) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

function FieldNotes({
  id,
  hint,
  error,
  over,
}: {
  id: string;
  hint?: string;
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

/** A labelled select with an optional hint and error, announced with it (the shape of FormField for selects). */
export function SelectField({
  label,
  hint,
  error,
  required,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="form-field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <select
        id={id}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...select}
      >
        {children}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * A labelled textarea with an optional hint (a character limit, say) and error. Its length rule is
 * `maxChars` (engine/ui/lengthLimit.tsx): said at the field, never cut.
 */
export function TextAreaField({
  label,
  hint,
  error,
  required,
  rows = 4,
  maxChars,
  ...area
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'maxLength'> &
  LengthLimit & {
    label: string;
    hint?: string;
    error?: string;
  }) {
  const id = useId();
  const over =
    charsOver(area.value, maxChars) > 0 ? { max: maxChars!, count: String(area.value).length } : undefined;
  const shownError = over ? 'too_long' : error;
  return (
    <div className="form-field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <textarea
        id={id}
        required={required}
        rows={rows}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy(id, hint, shownError)}
        {...area}
      />
      <FieldNotes id={id} hint={hint} error={error} over={over} />
    </div>
  );
}

/** A checkbox with its label after it. */
export function CheckboxField({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="form-field form-check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
