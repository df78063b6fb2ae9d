import { useEffect, useRef, useState } from 'react';

/**
 * Copying a code (account-flows.md §4 "Reward claim": "copy button when clipboard permission is
 * granted; copied note shown briefly"): `canCopy` once the browser says clipboard-write is granted
 * (navigator.permissions), `copy` writes it and shows the note for `noteMs`.
 */
export function useCopyCode(noteMs: number) {
  const [canCopy, setCanCopy] = useState(false);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    let live = true;
    const permissions = typeof navigator !== 'undefined' ? navigator.permissions : undefined;
    if (!permissions || !navigator.clipboard) return;
    permissions
      .query({ name: 'clipboard-write' as PermissionName })
      .then((status) => live && setCanCopy(status.state === 'granted'))
      .catch(() => undefined); // a browser that does not know the permission gets no button
    return () => {
      live = false;
      clearTimeout(timer.current);
    };
  }, []);

  async function copy(code: string) {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), noteMs);
    } catch {
      setCanCopy(false);
    }
  }

  return { canCopy, copied, copy };
}
