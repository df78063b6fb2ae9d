// @vitest-environment jsdom
/**
 * A registration's confirmation link (`/login?confirm=…`, engine/features/login/LoginScreen.tsx):
 * it asks for the password chosen at registration (server/auth/commands/registration.ts); a wrong
 * one keeps the form, a link that confirms nothing any more hands back to the sign-in methods.
 */
import { afterEach, describe, expect, it } from 'vitest';
import LoginScreen from '../../../engine/features/login/LoginScreen';
import { ApiError } from '../../../engine/domain/apiError';
import {
  byText,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  portalConfig,
  render,
  settleUntil,
  type,
} from '../../support/renderScreen';

afterEach(cleanUp);

const FOLDERS = ['core', 'features/login'];
const TEXTS = engineTexts(FOLDERS);
const TOKEN = 'c'.repeat(43);

async function open(answers: unknown[], locale: 'en-GB' | 'de-DE' = 'en-GB') {
  const sent: unknown[] = [];
  const api = fakeApi({}, { '/register/confirm': (body: unknown) => (sent.push(body), answers.shift()) });
  const { page } = await render(<LoginScreen />, {
    api,
    path: `/login?confirm=${TOKEN}`,
    portal: portalConfig(FOLDERS, {
      login: { magicLink: true, password: true, sessionIdleMinutes: 30 },
    }),
    loginSource: null,
    locale,
  });
  // The confirmation form is loaded when the link opens it (LoginScreen's lazy forms).
  await settleUntil(() => page.querySelector('input[name="password"]') !== null);
  return { page, sent, t: TEXTS[locale] };
}

const password = (page: HTMLElement) => page.querySelector<HTMLInputElement>('input[name="password"]')!;

describe('the confirmation link', () => {
  for (const locale of ['en-GB', 'de-DE'] as const) {
    it(`asks for the password chosen, and keeps the form after a wrong one (${locale})`, async () => {
      const wrong = new ApiError(400, 'wrong_registration_password', 'not that one');
      const { page, sent, t } = await open([wrong], locale);
      expect(page.textContent).toContain(t['login.confirmTitle']);
      // No call before the password is given: the link alone confirms nothing.
      expect(sent).toEqual([]);
      await type(password(page), 'Guess2026');
      await click(byText(page, 'button', t['login.confirmButton']));
      expect(sent).toEqual([{ token: TOKEN, password: 'Guess2026' }]);
      expect(page.textContent).toContain(t['login.wrongRegistrationPassword']);
      expect(password(page)).not.toBeNull();
    });
  }

  it('hands a link that confirms nothing any more back to the sign-in methods, with why', async () => {
    const used = new ApiError(409, 'already_confirmed', 'confirmed already');
    const { page, t } = await open([used]);
    await type(password(page), 'Reader2026');
    await click(byText(page, 'button', t['login.confirmButton']));
    expect(page.textContent).toContain(t['login.alreadyConfirmed']);
    expect(page.textContent).not.toContain(t['login.confirmTitle']);
    expect(byText(page, 'button', t['login.sendLink'])).toBeDefined();
  });

  it('goes back to the sign-in methods on request', async () => {
    const { page, t } = await open([]);
    await click(byText(page, 'button', t['login.backToLogin']));
    expect(page.textContent).not.toContain(t['login.confirmTitle']);
    expect(byText(page, 'button', t['login.sendLink'])).toBeDefined();
  });
});
