// @vitest-environment jsdom
/**
 * The link of the notice an account's old address gets when the account moves to another address
 * (engine/features/sso-profile-page/SsoUndoScreen.tsx): opening it changes nothing, the button takes
 * the account back, and a spent or made-up link says so, in the screen's language.
 */
import { afterEach, describe, expect, it } from 'vitest';
import SsoUndoScreen from '../../../engine/features/sso-profile-page/SsoUndoScreen';
import { ApiError } from '../../../engine/core/apiClient';
import {
  byText,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  portalConfig,
  render,
  settle,
} from '../../support/renderScreen';

afterEach(cleanUp);

const FOLDERS = ['core', 'account', 'features/sso-profile-page'];
const TEXTS = engineTexts(FOLDERS);
const TOKEN = 'u'.repeat(43);
const portal = () => portalConfig(FOLDERS, { features: ['sso-profile-page'] });

describe('the link that takes an account back', () => {
  for (const locale of ['de-DE', 'en-GB'] as const) {
    it(`asks first, then takes the account back (${locale})`, async () => {
      const sent: unknown[] = [];
      const api = fakeApi(
        {},
        { '/sso-profile/undoEmailChange': (body: unknown) => (sent.push(body), { message: 'ok' }) },
      );
      const t = TEXTS[locale];
      const { page } = await render(<SsoUndoScreen />, {
        api,
        path: `/sso-profile/undo?token=${TOKEN}`,
        portal: portal(),
        locale,
        loginSource: null,
      });
      expect(page.textContent).toContain(t['sso-profile-page.undo.intro']);
      expect(sent).toEqual([]);
      await click(byText(page, 'button', t['sso-profile-page.undo.submit']));
      expect(sent).toEqual([{ token: TOKEN }]);
      expect(page.textContent).toContain(t['sso-profile-page.undo.done']);
      expect(page.querySelector('button')).toBeNull();
    });
  }

  it('says a link spent or voided meanwhile at once, with no button that can only fail', async () => {
    const t = TEXTS['de-DE'];
    const api = fakeApi({ [`/sso-profile/undoEmailChange/state?token=${TOKEN}`]: { open: false } });
    const { page } = await render(<SsoUndoScreen />, {
      api,
      path: `/sso-profile/undo?token=${TOKEN}`,
      portal: portal(),
      locale: 'de-DE',
      loginSource: null,
    });
    await settle();
    expect(page.textContent).toContain(t['sso-profile-page.undo.invalid']);
    expect(page.querySelector('button')).toBeNull();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('says a spent link is spent, and a link without a token too', async () => {
    const t = TEXTS['en-GB'];
    const api = fakeApi({}, { '/sso-profile/undoEmailChange': new ApiError(404, 'not_found', 'spent') });
    const spent = await render(<SsoUndoScreen />, {
      api,
      path: `/sso-profile/undo?token=${TOKEN}`,
      portal: portal(),
      loginSource: null,
    });
    await click(byText(spent.page, 'button', t['sso-profile-page.undo.submit']));
    expect(spent.page.textContent).toContain(t['sso-profile-page.undo.invalid']);
    cleanUp();
    const none = await render(<SsoUndoScreen />, {
      path: '/sso-profile/undo',
      portal: portal(),
      loginSource: null,
    });
    expect(none.page.textContent).toContain(t['sso-profile-page.undo.invalid']);
    expect(none.page.querySelector('button')).toBeNull();
  });
});
