import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/**
 * account-flows.md §2 "Addresses": "a native confirmation on leaving with unsaved changes" — while
 * `dirty`, leaving the page asks the browser's own question (beforeunload), and leaving it inside
 * the portal asks `message` in the browser's confirm dialog (react-router's useBlocker; needs the
 * data router of engine/main.tsx). `release()` lets a save navigate on without asking.
 */
export function useUnsavedChangesGuard(dirty: boolean, message: string): { release: () => void } {
  const released = useRef(false);
  const active = dirty && !released.current;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !released.current && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(message)) blocker.proceed();
    else blocker.reset();
  }, [blocker, message]);

  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show their question only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);

  return {
    release: () => {
      released.current = true;
    },
  };
}
