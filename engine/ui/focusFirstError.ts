import { useCallback, useEffect, useRef, useState } from 'react';

/** A field marked invalid, or a radio of a group whose error is said (fields.tsx RadioGroup). */
export const FIRST_INVALID = '[aria-invalid="true"], input[type="radio"][data-invalid]:not(:disabled)';

/** The first invalid field; in a radio group, its chosen radio (the one refused), else its first. */
export function firstInvalidField(root: ParentNode): HTMLElement | null {
  const first = root.querySelector<HTMLElement>(FIRST_INVALID);
  if (!(first instanceof HTMLInputElement) || first.type !== 'radio') return first;
  const chosen = [...root.querySelectorAll<HTMLInputElement>('input[type="radio"][data-invalid]')].find(
    (radio) => radio.name === first.name && radio.checked,
  );
  return chosen ?? first;
}

/**
 * After a refused submit, focus moves to the first field marked invalid, so keyboard and screen
 * reader users land on the error (its message is tied to the field by aria-describedby).
 * `refused()` asks for it once the errors have rendered.
 */
export function useFocusFirstError<T extends HTMLElement = HTMLFormElement>() {
  const ref = useRef<T>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (round === 0) return;
    if (ref.current) firstInvalidField(ref.current)?.focus();
  }, [round]);
  const refused = useCallback(() => setRound((n) => n + 1), []);
  return { ref, refused };
}
