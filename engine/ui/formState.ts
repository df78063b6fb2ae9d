import { useCallback, useState } from 'react';

/**
 * The state of a form of the field kit (engine/ui/fields.tsx): its values, which of them the
 * person has changed (touched), and the messages of the last check, keyed by field (a value's key,
 * or the server's JSON pointer such as `/contactDetails/email`). Forms check their values with the
 * rules of engine/domain on submit and put the translated messages here (portal-core.md §5); the
 * fields show them with `error`.
 */
export interface FormState<V extends object, E extends string> {
  values: V;
  touched: Partial<Record<keyof V, true>>;
  errors: Partial<Record<E, string>>;
  /** Sets one value and marks it touched. */
  set: <K extends keyof V>(key: K, value: V[K]) => void;
  /** The onChange of a text field, select or textarea for a string value. */
  input: (
    key: { [K in keyof V]: V[K] extends string ? K : never }[keyof V],
  ) => (event: { target: { value: string } }) => void;
  setErrors: (errors: Partial<Record<E, string>>) => void;
  /** Back to the first values (or those given over them), nothing touched, no messages. */
  reset: (values?: Partial<V>) => void;
}

export function useFormState<V extends object, E extends string = Extract<keyof V, string>>(
  initial: V | (() => V),
): FormState<V, E> {
  const [first] = useState(initial);
  const [values, setValues] = useState<V>(first);
  const [touched, setTouched] = useState<Partial<Record<keyof V, true>>>({});
  const [errors, setErrors] = useState<Partial<Record<E, string>>>({});
  const set = useCallback(<K extends keyof V>(key: K, value: V[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setTouched((current) => (current[key] ? current : { ...current, [key]: true }));
  }, []);
  const input: FormState<V, E>['input'] = (key) => (event) => set(key, event.target.value as V[typeof key]);
  const reset = useCallback(
    (over?: Partial<V>) => {
      setValues({ ...first, ...over });
      setTouched({});
      setErrors({});
    },
    [first],
  );
  return { values, touched, errors, set, input, setErrors, reset };
}
