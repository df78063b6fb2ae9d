import { useId, type InputHTMLAttributes } from 'react';
import { charsOver, TooLongError, type LengthLimit } from './lengthLimit';

/**
 * A labelled input with an optional error, announced to screen readers. A length rule is
 * `maxChars` (engine/ui/lengthLimit.tsx): never the browser's `maxLength`, which would cut.
 */
export function FormField({
  label,
  error,
  required,
  maxChars,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'maxLength'> &
  LengthLimit & {
    label: string;
    error?: string;
  }) {
  const id = useId();
  const errorId = `${id}-error`;
  const over = charsOver(input.value, maxChars) > 0;
  const invalid = Boolean(error) || over;
  return (
    <div className="form-field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        required={required}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? errorId : undefined}
        {...input}
      />
      {over ? (
        <TooLongError id={errorId} max={maxChars!} count={String(input.value).length} />
      ) : (
        error && (
          <p id={errorId} className="form-error">
            {error}
          </p>
        )
      )}
    </div>
  );
}
