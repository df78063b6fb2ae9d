// @vitest-environment jsdom
/**
 * A field never drops what a person typed: it says the text is too long. The portal's fields
 * take `maxChars`, never the browser's maxLength: the whole text stays and the field says, as it
 * is typed, how many characters are allowed.
 */
import { readFileSync } from 'node:fs';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createTranslator, TranslationProvider } from '../../../engine/core/translation';
import { InputField, TextAreaField } from '../../../engine/ui/fields';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const core = JSON.parse(readFileSync('engine/core/texts.json', 'utf8'));
const translator = createTranslator({ locale: 'de-DE', fallbackLocale: 'en-GB', texts: core });
let root: Root | undefined;

function render(node: React.ReactNode): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(<TranslationProvider translator={translator}>{node}</TranslationProvider>));
  return host;
}

afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

const password21 = 'Abcdefghij1234567890X';

describe('fields with a length rule', () => {
  it('keeps all 21 characters of a password and says the limit at the field', () => {
    const host = render(
      <InputField
        label="Neues Passwort"
        type="password"
        value={password21}
        maxChars={20}
        onChange={() => undefined}
      />,
    );
    const input = host.querySelector('input')!;
    expect(input.value).toBe(password21);
    expect(input.hasAttribute('maxlength')).toBe(false);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(input.getAttribute('aria-describedby')!);
    expect(error?.textContent).toBe('Bitte geben Sie höchstens 20 Zeichen ein – jetzt sind es 21.');
  });

  it("shows the form's own error while the value fits", () => {
    const host = render(
      <InputField label="Name" value="Anna" maxChars={20} error="Pflichtfeld" onChange={() => undefined} />,
    );
    expect(host.querySelector('.form-error')?.textContent).toBe('Pflichtfeld');
    expect(host.querySelector('input')!.hasAttribute('maxlength')).toBe(false);
  });

  it("does the same for text areas and the account forms' inputs", () => {
    const area = render(
      <TextAreaField label="Nachricht" value={'x'.repeat(256)} maxChars={255} onChange={() => undefined} />,
    );
    expect(area.querySelector('textarea')!.value).toHaveLength(256);
    expect(area.querySelector('textarea')!.hasAttribute('maxlength')).toBe(false);
    expect(area.querySelector('.form-error')?.textContent).toContain('höchstens 255 Zeichen');
    act(() => root?.unmount());
    const input = render(
      <InputField label="Telefon" value={'1'.repeat(36)} maxChars={35} onChange={() => undefined} />,
    );
    expect(input.querySelector('input')!.value).toHaveLength(36);
    expect(input.querySelector('.form-error')?.textContent).toContain('jetzt sind es 36');
  });
});
