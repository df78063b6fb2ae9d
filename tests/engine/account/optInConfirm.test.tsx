// @vitest-environment jsdom
/**
 * The page the double opt-in mail links to (engine/features/opt-ins/OptInConfirmScreen.tsx), in the
 * portal's own look: opening it confirms nothing, the button does; a link that confirms nothing
 * any more says so at once, without a button; in the screen's language.
 */
import { afterEach, describe, expect, it } from 'vitest';
import OptInConfirmScreen from '../../../engine/features/opt-ins/OptInConfirmScreen';
import { ApiError } from '../../../engine/core/apiClient';
import {
  byText,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  portalConfig,
  render,
  settleUntil,
} from '../../support/renderScreen';

afterEach(cleanUp);

const FOLDERS = ['core', 'account', 'features/opt-ins'];
const TEXTS = engineTexts(FOLDERS);
const TOKEN = 'o'.repeat(43);
const STATE = `/opt-ins/confirm/state?token=${TOKEN}`;
const portal = () => portalConfig(FOLDERS, { features: ['opt-ins'], name: 'Acme Zeitung' });

describe('the double opt-in link’s page', () => {
  for (const locale of ['de-DE', 'en-GB'] as const) {
    it(`asks first, then confirms (${locale})`, async () => {
      const sent: unknown[] = [];
      const api = fakeApi(
        { [STATE]: { open: true, optIns: ['Newsletter'] } },
        {
          '/opt-ins/confirm': (body: unknown) => (
            sent.push(body),
            { status: 'confirmed', types: ['NEWSLETTER'] }
          ),
        },
      );
      const t = TEXTS[locale];
      const { page } = await render(<OptInConfirmScreen />, {
        api,
        path: `/opt-ins/confirm?token=${TOKEN}`,
        portal: portal(),
        locale,
        loginSource: null,
      });
      await settleUntil(() => page.querySelector('button') !== null);
      expect(page.textContent).toContain(t['opt-ins.confirm.intro'].replace('{{tenant}}', 'Acme Zeitung'));
      // What the link confirms, as the server names it.
      expect([...page.querySelectorAll('.opt-in-confirm-list li')].map((li) => li.textContent)).toEqual([
        'Newsletter',
      ]);
      expect(sent).toEqual([]);
      await click(byText(page, 'button', t['opt-ins.confirm.submit']));
      expect(sent).toEqual([{ token: TOKEN }]);
      expect(page.textContent).toContain(t['opt-ins.confirm.done']);
      expect(page.querySelector('button')).toBeNull();
    });
  }

  it('keeps its outcome for a reload: the spent token leaves the address, the language stays', async () => {
    const t = TEXTS['en-GB'];
    const api = fakeApi(
      { [STATE]: { open: true, optIns: ['Newsletter'] } },
      { '/opt-ins/confirm': () => ({ status: 'confirmed', types: ['NEWSLETTER'] }) },
    );
    const opened = await render(<OptInConfirmScreen />, {
      api,
      path: `/opt-ins/confirm?token=${TOKEN}&lang=en`,
      portal: portal(),
      loginSource: null,
    });
    await settleUntil(() => opened.page.querySelector('button') !== null);
    await click(byText(opened.page, 'button', t['opt-ins.confirm.submit']));
    const { search, state } = opened.router.state.location;
    expect(search).toBe('?lang=en');
    cleanUp();

    // The reload: the same history entry, no token, nothing asked, the outcome shown.
    const reloaded = fakeApi();
    const again = await render(<OptInConfirmScreen />, {
      api: reloaded,
      path: `/opt-ins/confirm${search}`,
      state,
      portal: portal(),
      loginSource: null,
    });
    expect(again.page.textContent).toContain(t['opt-ins.confirm.done']);
    expect(again.page.querySelector('button')).toBeNull();
    expect(reloaded.calls).toEqual([]);
  });

  it('offers no button for a spent link or none, and says a link spent meanwhile is spent', async () => {
    const t = TEXTS['en-GB'];
    const spent = await render(<OptInConfirmScreen />, {
      api: fakeApi({ [STATE]: { open: false, optIns: [] } }),
      path: `/opt-ins/confirm?token=${TOKEN}`,
      portal: portal(),
      loginSource: null,
    });
    await settleUntil(() => spent.page.textContent!.includes(t['opt-ins.confirm.invalid']));
    expect(spent.page.querySelector('button')).toBeNull();
    cleanUp();

    const none = await render(<OptInConfirmScreen />, {
      path: '/opt-ins/confirm',
      portal: portal(),
      loginSource: null,
    });
    expect(none.page.textContent).toContain(t['opt-ins.confirm.invalid']);
    expect(none.page.querySelector('button')).toBeNull();
    cleanUp();

    // Open when the page asked, spent when the button is pressed (another tab confirmed it).
    const meanwhile = await render(<OptInConfirmScreen />, {
      api: fakeApi(
        { [STATE]: { open: true, optIns: [] } },
        { '/opt-ins/confirm': new ApiError(404, 'not_found', 'spent') },
      ),
      path: `/opt-ins/confirm?token=${TOKEN}`,
      portal: portal(),
      loginSource: null,
    });
    await settleUntil(() => meanwhile.page.querySelector('button') !== null);
    await click(byText(meanwhile.page, 'button', t['opt-ins.confirm.submit']));
    expect(meanwhile.page.textContent).toContain(t['opt-ins.confirm.invalid']);
  });
});
