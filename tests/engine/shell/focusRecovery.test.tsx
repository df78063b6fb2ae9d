// @vitest-environment jsdom
/**
 * Focus after an action removed the control that had it (engine/app/shell/useFocusRecovery.ts):
 * the screen's heading, not the page's body; a dialog still open keeps it; a control disabled while
 * its action ran gets it back.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { useFocusRecovery } from '../../../engine/app/shell/useFocusRecovery';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Page() {
  useFocusRecovery('main');
  return (
    <main id="main">
      <h1>Holiday service</h1>
      <button id="cancel">Cancel the service</button>
      <button id="other">Other</button>
    </main>
  );
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

function render() {
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(<Page />));
}

/** Removes the focused control as a finished action does (no focusout: not every browser sends one). */
async function removeFocused(id: string) {
  const control = document.getElementById(id)!;
  control.focus();
  control.remove();
  await settled();
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 10));

/** The page keeps the focus while nothing in it is focused (jsdom forgets that, Chromium does not). */
async function withPageFocus(run: () => Promise<void>) {
  const hasFocus = document.hasFocus;
  document.hasFocus = () => true;
  try {
    await run();
  } finally {
    document.hasFocus = hasFocus;
  }
}

/** Disables the focused control as Chromium does: the focus drops to the body. */
async function disableFocused(id: string): Promise<HTMLButtonElement> {
  const control = document.getElementById(id) as HTMLButtonElement;
  control.focus();
  control.blur();
  control.disabled = true;
  await settled();
  return control;
}

describe('focus after the control that had it is gone', () => {
  it("goes to the screen's heading", async () => {
    render();
    await removeFocused('cancel');
    expect(document.activeElement?.textContent).toBe('Holiday service');
  });

  it("goes to the screen's heading when the control is disabled under it (a save with nothing left to save)", async () => {
    render();
    await withPageFocus(async () => {
      await disableFocused('cancel');
      expect(document.activeElement?.textContent).toBe('Holiday service');
    });
  });

  it('goes back to a control that was disabled while its action ran, once it is enabled again', async () => {
    render();
    await withPageFocus(async () => {
      const send = await disableFocused('cancel');
      expect(document.activeElement?.textContent).toBe('Holiday service');
      send.disabled = false;
      await settled();
      expect(document.activeElement).toBe(send);
    });
  });

  it('waits for Chromium to take the focus from a control disabled under it, and keeps the heading when the form goes', async () => {
    render();
    await withPageFocus(async () => {
      const send = document.getElementById('cancel') as HTMLButtonElement;
      send.focus();
      send.disabled = true;
      // Chromium drops the focus of a disabled control at its next rendering, with a focusout.
      await settled();
      expect(document.activeElement).toBe(send);
      // jsdom never blurs a disabled control: the page's body has the focus, as far as the hook can
      // tell, and the focusout comes.
      Object.defineProperty(document, 'activeElement', { configurable: true, get: () => document.body });
      try {
        send.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
        await settled();
      } finally {
        delete (document as { activeElement?: unknown }).activeElement;
      }
      expect(document.activeElement?.textContent).toBe('Holiday service');
      // The booking is done: the form with its button goes, the heading keeps the focus.
      send.remove();
      await settled();
      expect(document.activeElement?.textContent).toBe('Holiday service');
    });
  });

  it('leaves the focus where the visitor moved it while the action ran', async () => {
    render();
    await withPageFocus(async () => {
      const send = await disableFocused('cancel');
      const other = document.getElementById('other')!;
      other.focus();
      send.disabled = false;
      await settled();
      expect(document.activeElement).toBe(other);
    });
  });

  it('stays where the visitor put it when the control is still there', async () => {
    render();
    const other = document.getElementById('other')!;
    document.getElementById('cancel')!.focus();
    other.focus();
    await settled();
    expect(document.activeElement).toBe(other);
  });

  it('takes nothing while the page does not have the focus (an embedded portal in the background)', async () => {
    render();
    const hasFocus = document.hasFocus;
    document.hasFocus = () => false;
    try {
      await removeFocused('cancel');
      expect(document.activeElement).toBe(document.body);
    } finally {
      document.hasFocus = hasFocus;
    }
  });

  it('stays in a dialog that is still open', async () => {
    render();
    const dialog = document.createElement('dialog');
    dialog.setAttribute('open', '');
    dialog.innerHTML = '<p>Cancelled</p><button id="close">Close</button><button id="gone">Yes</button>';
    document.getElementById('main')!.append(dialog);
    await removeFocused('gone');
    expect(document.activeElement?.id).toBe('close');
  });
});
