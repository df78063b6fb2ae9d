import { useCallback, useEffect, useRef, useState } from 'react';

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
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [round]);
  const refused = useCallback(() => setRound((n) => n + 1), []);
  return { ref, refused };
}
