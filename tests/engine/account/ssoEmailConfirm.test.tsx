// @vitest-environment jsdom
/**
 * The e-mail change's confirmation link on the account page (engine/features/sso-profile-page): once
 * confirmed, the session names the new address at once — the header's account menu reads it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import SsoProfileScreen from '../../../engine/features/sso-profile-page/SsoProfileScreen';
import { authStateAtom } from '../../../engine/core/authState';
import { cleanUp, fakeApi, portalConfig, render, settle } from '../../support/renderScreen';

afterEach(cleanUp);

describe('a confirmed e-mail change', () => {
  it('gives the session the new address', async () => {
    const api = fakeApi(
      { '/sso-profile/getProfile': { email: 'new@acme.example' } },
      {
        '/sso-profile/confirmEmail': {
          message: 'Your login address is now new@acme.example.',
          email: 'new@acme.example',
        },
      },
    );
    const { page, store } = await render(<SsoProfileScreen />, {
      api,
      path: '/sso-profile?emailToken=' + 'A'.repeat(43),
      portal: portalConfig(['core', 'account', 'features/sso-profile-page'], {
        features: ['sso-profile-page'],
      }),
    });
    await settle();
    expect(page.textContent).toContain('Your login address is now new@acme.example.');
    expect(store.get(authStateAtom).user?.email).toBe('new@acme.example');
  });
});
