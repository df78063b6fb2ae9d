import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { charsOver, TooLongError, type LengthLimit } from './lengthLimit';

/**
 * The one field kit of the portal: a label (starred when required, portal-core.md §5 "Required
 * fields are starred"), the control, and under it an optional hint and the error, both announced
 * with the control. Forms check their values with the rules of engine/domain and set `noValidate`,
 * so `required` stars and announces without the browser's own bubble. A length rule is `maxChars`
 * (engine/ui/lengthLimit.tsx): said at the field while typing, never the browser's `maxLength`,
 * which would cut what a person typed. A choice of a few is a RadioGroup.
 */
interface FieldFrame {
  label: string;
  /** A limit, a format, or the pointer to the contact form for a locked field. */
  hint?: ReactNode;
  error?: string;
  /** A note outside the field that concerns it too (a group's "locked" pointer). */
  describedById?: string;
}

/** aria-describedby of a field: an outside note, its hint and its error, when there are any. */
const describedBy = (id: string, hint: unknown, error: unknown, outside?: string) =>
  [outside ?? '', hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') ||
  undefined;

type Overflow = { max: number; count: number } | undefined;

const overflowOf = (value: unknown, maxChars: number | undefined): Overflow =>
  charsOver(value, maxChars) > 0 ? { max: maxChars!, count: String(value).length } : undefined;

function Field({
  id,
  label,
  required,
  className,
  hint,
  error,
  over,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  className?: string;
  hint?: ReactNode;
  error?: string;
  over?: Overflow;
  children: ReactNode;
}) {
  return (
    <div className={['form-field', className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {children}
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
    </div>
  );
}

/** A labelled input. */
export function InputField({
  label,
  hint,
  error,
  describedById,
  required,
  className,
  maxChars,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'maxLength'> & LengthLimit & FieldFrame) {
  const id = useId();
  const over = overflowOf(input.value, maxChars);
  const shownError = over ? 'too_long' : error;
  return (
    <Field {...{ id, label, required, className, hint, error, over }}>
      <input
        id={id}
        required={required}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy(id, hint, shownError, describedById)}
        {...input}
      />
    </Field>
  );
}

/** A labelled select. */
export function SelectField({
  label,
  hint,
  error,
  describedById,
  required,
  className,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & FieldFrame & { children: ReactNode }) {
  const id = useId();
  return (
    <Field {...{ id, label, required, className, hint, error }}>
      <select
        id={id}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error, describedById)}
        {...select}
      >
        {children}
      </select>
    </Field>
  );
}

/** A labelled textarea. */
export function TextAreaField({
  label,
  hint,
  error,
  describedById,
  required,
  className,
  rows = 4,
  maxChars,
  ...area
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'maxLength'> & LengthLimit & FieldFrame) {
  const id = useId();
  const over = overflowOf(area.value, maxChars);
  const shownError = over ? 'too_long' : error;
  return (
    <Field {...{ id, label, required, className, hint, error, over }}>
      <textarea
        id={id}
        required={required}
        rows={rows}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={describedBy(id, hint, shownError, describedById)}
        {...area}
      />
    </Field>
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

/** One choice of a RadioGroup: its value, its label and, under the label, an optional description. */
export interface RadioOption<V extends string> {
  value: V;
  label: ReactNode;
  description?: ReactNode;
}

/**
 * A group of radio buttons: a fieldset named by its legend (starred when required, portal-core.md
 * §5), one labelled radio per option, and the group's error under it, announced with the group
 * (aria-describedby on the fieldset). The radios share `name`, so the browser's own keyboard
 * behaviour holds: Tab enters the group at the chosen radio, the arrow keys move the choice.
 * `className` adds to `choice` (engine/ui/styles.css); `children` come after the options, inside
 * the group (a date that belongs to the "on a date" choice).
 */
export function RadioGroup<V extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  required,
  disabled,
  error,
  className,
  testId,
  children,
}: {
  legend: string;
  /** The radios' name, unique on the page. */
  name: string;
  options: readonly RadioOption<V>[];
  /** The chosen value; none is checked for a value no option has (nothing chosen yet). */
  value: V | '';
  onChange: (value: V) => void;
  required?: boolean;
  disabled?: boolean;
  error?: string;
  className?: string;
  testId?: string;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <fieldset
      className={['choice', className].filter(Boolean).join(' ')}
      aria-describedby={error ? `${id}-error` : undefined}
      data-testid={testId}
    >
      <legend>
        {legend}
        {required && <span aria-hidden="true"> *</span>}
      </legend>
      {options.map((option) => (
        <label key={option.value} className={option.description ? 'choice-option' : undefined}>
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            disabled={disabled}
            onChange={() => onChange(option.value)}
          />
          {option.description ? (
            <span>
              <span className="choice-title">{option.label}</span>
              <span className="muted choice-text">{option.description}</span>
            </span>
          ) : (
            option.label
          )}
        </label>
      ))}
      {children}
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
