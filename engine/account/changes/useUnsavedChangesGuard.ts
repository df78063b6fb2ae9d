import { useEffect, useRef } from 'react';

/**
 * account-flows.md §2 "Addresses": "a native confirmation on leaving with unsaved changes". While
 * `dirty`, leaving asks:
 * - closing or reloading the tab: the browser's own question (beforeunload);
 * - a link inside the portal (menu, header, back link): `message` in the browser's confirm dialog.
 *   A capture listener on the document sees the click before React's root does, so a "stay"
 *   stops the link before react-router acts on it;
 * - the browser's back button: an extra history entry for the same page catches the first step
 *   back, asks, and either steps back once more or restores the entry.
 * The portal uses react-router's declarative router (its data router, which offers useBlocker,
 * costs 16 KB of gzipped JavaScript on every screen; docs/testing.md "Speed and size"), so the guard does
 * not go through the router. `release()` lets a save navigate on without asking; `confirmLeave()`
 * asks for the form's own ways out (its cancel button), which are no links: true when the user may
 * leave (nothing unsaved, or "leave" chosen), and the guard is released then.
 */
export function useUnsavedChangesGuard(
  dirty: boolean,
  message: string,
): { release: () => void; confirmLeave: () => boolean } {
  const released = useRef(false);
  const active = dirty && !released.current;
  const messageRef = useRef(message);
  messageRef.current = message;

  useEffect(() => {
    if (!active) return;
    const stillGuarding = () => !released.current;

    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!stillGuarding()) return;
      event.preventDefault();
      // Older browsers show their question only when returnValue is set.
      event.returnValue = '';
    };

    const onClick = (event: MouseEvent) => {
      if (!stillGuarding() || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab or window keeps this page
      const anchor = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!anchor || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
      const to = new URL(anchor.href, window.location.href);
      if (to.origin === window.location.origin && to.pathname === window.location.pathname) return;
      if (window.confirm(messageRef.current)) return;
      event.preventDefault();
      event.stopPropagation();
    };

    const guardEntry = { portalUnsavedGuard: true };
    window.history.pushState({ ...(window.history.state ?? {}), ...guardEntry }, '');
    const onPopState = () => {
      if (!stillGuarding()) return;
      if (window.history.state?.portalUnsavedGuard) return; // moved forward onto the guard entry again
      if (window.confirm(messageRef.current)) {
        released.current = true;
        window.history.back();
      } else {
        window.history.pushState({ ...(window.history.state ?? {}), ...guardEntry }, '');
      }
    };

    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onPopState);
    };
  }, [active]);

  return {
    release: () => {
      released.current = true;
    },
    confirmLeave: () => {
      if (dirty && !released.current && !window.confirm(messageRef.current)) return false;
      released.current = true;
      return true;
    },
  };
}
