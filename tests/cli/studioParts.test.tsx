// @vitest-environment jsdom
/**
 * The studio's settings and save dialog at the keyboard and in words (docs/operators.md "Operators:
 * the studio"): warnings are listed as well as counted, the group tabs follow the arrow keys, and
 * the save dialog takes the focus, closes on Escape and gives the focus back.
 */
import { act, type ComponentProps } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import validator from '@rjsf/validator-ajv8';
import { ReviewDialog, SettingsSection } from '../../studio/StudioParts';
import type { StudioGroup } from '../../studio/groups';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

function render(element: React.ReactElement): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(element));
  return host;
}

const groups: StudioGroup[] = [
  { id: 'brand', label: 'Brand', keys: ['name', 'privacy'] },
  { id: 'sign-in', label: 'Sign-in', keys: ['login'] },
  { id: 'features', label: 'Features', keys: ['features'] },
];

function settings(props: Partial<ComponentProps<typeof SettingsSection>>) {
  return (
    <SettingsSection
      issues={[]}
      warnings={[]}
      groups={groups}
      tab="brand"
      onTab={() => undefined}
      onIssue={() => undefined}
      form={{
        fileId: 'acme',
        group: groups[0],
        tabSchema: { type: 'object', properties: { name: { type: 'string' } } },
        validator,
        uiSchema: {},
        data: { name: 'Acme' },
        formContext: { colors: {} },
        extraErrors: {},
      }}
      onChange={() => undefined}
      {...props}
    />
  );
}

describe('the studio’s settings', () => {
  it('lists each warning with its field, not only their number', () => {
    const onIssue = vi.fn();
    const page = render(
      settings({
        onIssue,
        warnings: [
          {
            file: 'tenants/acme.json',
            line: 1,
            column: 1,
            pointer: '/privacy',
            message: 'no privacy section',
            hint: 'add one before going live',
          },
        ],
      }),
    );
    expect(page.querySelector('[data-testid="studio-summary"]')!.textContent).toContain('1 warning(s)');
    const list = page.querySelector('ul.studio-warnings')!;
    expect(list.textContent).toContain('no privacy section — add one before going live');
    act(() => list.querySelector('button')!.click());
    expect(onIssue).toHaveBeenCalledWith('/privacy');
  });

  it('moves between the group tabs with the arrow keys, Home and End, one tab stop for all', () => {
    const onTab = vi.fn();
    const page = render(settings({ onTab, tab: 'sign-in' }));
    const tabs = [...page.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    expect(tabs.map((tab) => tab.tabIndex)).toEqual([-1, 0, -1]);
    const press = (key: string) =>
      act(() => tabs[1].dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));
    press('ArrowRight');
    press('ArrowLeft');
    press('Home');
    press('End');
    expect(onTab.mock.calls.map((call) => call[0])).toEqual(['features', 'brand', 'brand', 'features']);
  });
});

describe('the save dialog', () => {
  it('takes the focus, closes on Escape and gives the focus back to what opened it', () => {
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    const closeReview = vi.fn();
    const page = render(
      <ReviewDialog
        fileId="acme"
        review={{ diff: [{ kind: '+', text: '"name": "Acme"' }], issues: [] }}
        reviewing={{
          review: undefined,
          confirmed: false,
          setConfirmed: () => undefined,
          startReview: async () => undefined,
          save: async () => undefined,
          closeReview,
        }}
      />,
    );
    const dialog = page.querySelector<HTMLElement>('[role="dialog"]')!;
    expect(document.activeElement).toBe(dialog);
    // Tab stays inside: from the last control back to the first, and Shift+Tab the other way.
    const buttons = [...dialog.querySelectorAll<HTMLButtonElement>('button')];
    const tab = (shiftKey = false) =>
      act(() =>
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true })),
      );
    buttons.at(-1)!.focus();
    tab();
    expect(document.activeElement).toBe(buttons[0]);
    tab(true);
    expect(document.activeElement).toBe(buttons.at(-1));
    act(() => dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(closeReview).toHaveBeenCalledOnce();
    act(() => root!.unmount());
    root = undefined;
    expect(document.activeElement).toBe(opener);
  });
});
