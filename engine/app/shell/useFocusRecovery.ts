import { useEffect } from 'react';

/**
 * Keyboard and screen-reader users keep their place after an action removes the control they used
 * (a service cancelled, a licence deleted, a dialog closed whose opener is gone): the browser would
 * drop the focus to the page's body, where the next Tab starts from the top. Focus goes to the
 * screen's heading instead (WCAG 2.4.3 "Focus order"), without scrolling. Chromium reports such a
 * removal as a `focusout` of the removed element; a control the visitor leaves by clicking
 * elsewhere stays in the page and is left alone.
 */
export function useFocusRecovery(mainId: string): void {
  useEffect(() => {
    const onFocusOut = (event: FocusEvent) => {
      const left = event.target;
      if (!(left instanceof Element) || event.relatedTarget !== null) return;
      if (!document.getElementById(mainId)?.contains(left)) return;
      // After the commit that removed it: the screen's new content is in the page by then.
      window.setTimeout(() => {
        if (left.isConnected) return;
        const now = document.activeElement;
        if (now !== null && now !== document.body) return;
        const main = document.getElementById(mainId);
        if (!main) return;
        // A dialog still open (its content changed) keeps the focus: the page behind it is inert.
        const dialog = document.querySelector<HTMLDialogElement>('dialog[open]');
        if (dialog) {
          (dialog.querySelector<HTMLElement>('button, [href], input, select, textarea') ?? dialog).focus();
          return;
        }
        const heading = main.querySelector<HTMLElement>('h1');
        if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        (heading ?? main).focus({ preventScroll: true });
      }, 0);
    };
    document.addEventListener('focusout', onFocusOut, true);
    return () => document.removeEventListener('focusout', onFocusOut, true);
  }, [mainId]);
}
