import { useEffect } from 'react';

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * Keyboard and screen-reader users keep their place after an action removes or disables the control
 * they used (a service cancelled, a licence deleted, a dialog closed whose opener is gone, a link
 * followed inside the screen, a "Save" with nothing left to save): the browser drops the focus to
 * the page's body, and a screen reader loses
 * where it was. Focus goes to the screen's heading instead (WCAG 2.4.3 "Focus order"), without
 * scrolling, or into a dialog still open. Watched by the screen's own changes (every browser tells
 * them; not all report the removal as a `focusout`), and only while the page has the focus: an
 * embedded portal never pulls it from the publisher's page. A control disabled only while its
 * action runs ("Send", "Request my data") gets the focus back when it is enabled again, if the
 * focus is still where it was parked: the visitor keeps their place in the page, and the outcome
 * is announced by its alert.
 */
export function useFocusRecovery(mainId: string): void {
  useEffect(() => {
    const main = document.getElementById(mainId);
    if (!main) return;
    let last: Element | null = null;
    let scheduled = false;
    // A control that lost the focus by being disabled, and where the focus was parked meanwhile.
    let parked: { control: HTMLElement; on: HTMLElement } | null = null;
    const onFocusIn = (event: FocusEvent) => {
      if (parked && event.target !== parked.on) parked = null;
      if (event.target instanceof Element && main.contains(event.target)) last = event.target;
    };
    // Gone from the page, or disabled where it is (a "Save" that has nothing left to save): either
    // way the browser has dropped the focus to the body.
    const lost = (element: Element | null) =>
      element !== null && (!element.isConnected || (element as HTMLButtonElement).disabled === true);
    const recover = () => {
      scheduled = false;
      if (!lost(last)) return;
      const control = last as HTMLElement;
      const now = document.activeElement;
      // Chromium takes the focus from a control disabled in place only at its next rendering, after
      // this task; its focusout then calls again (`onFocusOut`).
      if (now === control) return;
      last = null;
      if (!document.hasFocus() || (now !== null && now !== document.body)) return;
      const dialogs = document.querySelectorAll<HTMLDialogElement>('dialog[open]');
      const dialog = dialogs[dialogs.length - 1];
      if (dialog) {
        (dialog.querySelector<HTMLElement>(FOCUSABLE) ?? dialog).focus();
        return;
      }
      const heading = main.querySelector<HTMLElement>('h1');
      if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      const on = heading ?? main;
      on.focus({ preventScroll: true });
      if (control.isConnected) parked = { control, on };
    };
    const giveBack = () => {
      if (!parked || (parked.control as HTMLButtonElement).disabled) return;
      const { control, on } = parked;
      parked = null;
      if (control.isConnected && document.activeElement === on) control.focus({ preventScroll: true });
    };
    const schedule = () => {
      if (scheduled || !lost(last)) return;
      scheduled = true;
      window.setTimeout(recover, 0);
    };
    const onFocusOut = (event: FocusEvent) => {
      if (event.target === last && event.relatedTarget === null) schedule();
    };
    // After the commit that removed it: the screen's new content is in the page by then.
    const observer = new MutationObserver(() => {
      giveBack();
      schedule();
    });
    observer.observe(main, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['disabled'],
    });
    document.addEventListener('focusin', onFocusIn, true);
    document.addEventListener('focusout', onFocusOut, true);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn, true);
      document.removeEventListener('focusout', onFocusOut, true);
    };
  }, [mainId]);
}
