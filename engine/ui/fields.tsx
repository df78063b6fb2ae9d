import {
  Fragment,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { charsOver, TooLongError, type LengthLimit, type TooLongKey } from './lengthLimit';
import { textLength } from '../domain/fieldRules';

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

type Overflow = { max: number; count: number; textKey?: TooLongKey } | undefined;

const overflowOf = (value: unknown, maxChars: number | undefined, textKey?: TooLongKey): Overflow =>
  // Counted as the limit counts (code points, engine/domain/fieldRules.ts textLength): an emoji is one.
  charsOver(value, maxChars) > 0 ? { max: maxChars!, count: textLength(String(value)), textKey } : undefined;

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
        <TooLongError id={`${id}-error`} max={over.max} count={over.count} textKey={over.textKey} />
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
  tooLongKey,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'maxLength'> & LengthLimit & FieldFrame) {
  const id = useId();
  const over = overflowOf(input.value, maxChars, tooLongKey);
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
  tooLongKey,
  ...area
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'maxLength'> & LengthLimit & FieldFrame) {
  const id = useId();
  const over = overflowOf(area.value, maxChars, tooLongKey);
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
  /** The label's content after the radio: words, or a card's picture and text. */
  label: ReactNode;
  description?: ReactNode;
  /** The label's class instead of the kit's (a picture card's, with its class when chosen). */
  className?: string;
  testId?: string;
}

/**
 * A group of radio buttons: a fieldset named by its legend (starred when required, portal-core.md
 * §5), one labelled radio per option, and the group's error under it, announced with the group
 * (aria-describedby on the fieldset). The radios share `name`, so the browser's own keyboard
 * behaviour holds: Tab enters the group at the chosen radio, the arrow keys move the choice.
 * `className` adds to `choice` (engine/ui/styles.css); `children` come after the options, inside
 * the group (a date that belongs to the "on a date" choice). `disabled` disables the fieldset, so
 * all it holds.
 *
 * Picture cards (the offers, account-flows.md §2, §3; the e-card templates, §9) are a `bare` group:
 * no `choice` frame or option layout, each option styled by its own `className`; `lead` comes
 * before the options (a filter of them) and `listClassName` puts them in a list (a grid of cards).
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
  bare,
  lead,
  listClassName,
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
  /** Without the kit's `choice` frame: the options' classes style them. */
  bare?: boolean;
  /** After the legend, before the options. */
  lead?: ReactNode;
  /** The options as a list of this class, one item each. */
  listClassName?: string;
  testId?: string;
  children?: ReactNode;
}) {
  const id = useId();
  const radio = (option: RadioOption<V>) => (
    <RadioLabel
      option={option}
      name={name}
      checked={value === option.value}
      invalid={Boolean(error)}
      onChange={onChange}
    />
  );
  return (
    <fieldset
      className={[bare ? '' : 'choice', className].filter(Boolean).join(' ')}
      disabled={disabled}
      aria-describedby={error ? `${id}-error` : undefined}
      data-testid={testId}
    >
      <legend>
        {legend}
        {required && <span aria-hidden="true"> *</span>}
      </legend>
      {lead}
      {listClassName ? (
        <ul className={listClassName}>
          {options.map((option) => (
            <li key={option.value}>{radio(option)}</li>
          ))}
        </ul>
      ) : (
        options.map((option) => <Fragment key={option.value}>{radio(option)}</Fragment>)
      )}
      {children}
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** One option of a RadioGroup: its radio, then its label (with the description under it). */
function RadioLabel<V extends string>({
  option,
  name,
  checked,
  invalid,
  onChange,
}: {
  option: RadioOption<V>;
  name: string;
  checked: boolean;
  /**
   * The group's error is said: each radio is marked, so the focus after a refused submit finds the
   * group (focusFirstError.ts). Not with aria-invalid, which ARIA 1.2 gives a radio group, not a
   * radio; the group's error is announced with it (aria-describedby).
   */
  invalid: boolean;
  onChange: (value: V) => void;
}) {
  return (
    <label
      className={option.className ?? (option.description ? 'choice-option' : undefined)}
      data-testid={option.testId}
    >
      <input
        type="radio"
        name={name}
        value={option.value}
        checked={checked}
        data-invalid={invalid || undefined}
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
  );
}
