// @vitest-environment jsdom
/**
 * The login page's views (engine/features/login/LoginScreen.tsx) in the tab title
 * (engine/app/shell/usePageTitle.ts): the forgot-password form names itself before the page, so it
 * does not share the sign-in's title; the tenant's login message, which introduces the sign-in
 * methods, stays with them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import LoginScreen from '../../../engine/features/login/LoginScreen';
import { usePageTitle } from '../../../engine/app/shell/usePageTitle';
import { cleanUp, engineTexts, fakeApi, portalConfig, render, settleUntil } from '../../support/renderScreen';
import { ApiError } from '../../../engine/domain/apiError';
import { requestedDestination } from '../../../engine/domain/returnTo';

afterEach(cleanUp);

const FOLDERS = ['core', 'features/login'];
const en = engineTexts(FOLDERS)['en-GB'];
const MESSAGE = 'Have an Acme account? Log in with single sign-on.';

function TitledLogin() {
  usePageTitle('Acme');
  return (
    <main id="main">
      <LoginScreen />
    </main>
  );
}

const portal = () =>
  portalConfig(FOLDERS, {
    login: {
      magicLink: true,
      password: true,
      sessionIdleMinutes: 30,
      standaloneLoginMessage: { 'en-GB': `<p>${MESSAGE}</p>`, 'de-DE': '<p>Konto?</p>' },
    },
  });

describe('the login page in the tab title', () => {
  it('names the sign-in page, with the login message above the methods', async () => {
    const { page } = await render(<TitledLogin />, { path: '/login', portal: portal(), loginSource: null });
    expect(document.title).toBe(`${en['login.title']} – Acme`);
    expect(page.textContent).toContain(MESSAGE);
  });

  it('puts the forgot-password form before the page, without the login message', async () => {
    const { page } = await render(<TitledLogin />, {
      path: '/login?forgot=1',
      portal: portal(),
      loginSource: null,
    });
    await settleUntil(() => page.textContent!.includes(en['login.forgotTitle']));
    expect(document.title).toBe(`${en['login.forgotTitle']} – ${en['login.title']} – Acme`);
    expect(page.textContent).not.toContain(MESSAGE);
  });
});

describe('the login page a new address’s confirmation link leads to without a session', () => {
  it('says why to sign in, and the sign-in hands the link back to the account details', async () => {
    const { page } = await render(<TitledLogin />, {
      path: '/login?emailToken=abc&returnTo=%2Fsso-profile',
      portal: portal(),
      loginSource: null,
    });
    expect(page.querySelector('.alert')?.textContent).toBe(en['login.signInToConfirmEmail']);
    expect(requestedDestination('?emailToken=abc&returnTo=%2Fsso-profile')).toBe(
      '/sso-profile?emailToken=abc',
    );
  });
});

describe('the login page after a single sign-on that did not finish', () => {
  it('says the sign-on cannot be reached when the SSO button came back (server/auth/oauthRoutes.ts)', async () => {
    const { page } = await render(<TitledLogin />, {
      path: '/login?sso=unavailable&returnTo=%2Finvoices',
      portal: portal(),
      loginSource: null,
    });
    expect(page.querySelector('[role="alert"], .alert')?.textContent).toContain(en['login.ssoUnavailable']);
  });

  it('says it failed when the provider sent the visitor back with an error of its own', async () => {
    const { page } = await render(<TitledLogin />, {
      path: '/login?error=access_denied&state=abc',
      portal: portal(),
      loginSource: null,
    });
    expect(page.textContent).toContain(en['login.ssoFailed']);
  });
});

describe('a login link opened again', () => {
  const spent = () =>
    fakeApi(
      {},
      { '/login/token': new ApiError(401, 'invalid_token', 'This link is invalid or has expired.') },
    );

  it('sends a signed-in visitor on, as a signed-in visit to /login does, instead of "invalid link"', async () => {
    // An embedding page reloaded at the `?p=` address it signed its visitor in with.
    const { page, router } = await render(<LoginScreen />, {
      path: '/login?p=spent-token&returnTo=%2Finvoices',
      route: '/login',
      api: spent(),
      portal: portal(),
      loginSource: 'token',
    });
    await settleUntil(() => !router.state.location.search.includes('p='));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/login?returnTo=%2Finvoices',
    );
    expect(page.textContent).not.toContain(en['login.tokenInvalid']);
  });

  it('says a limit or a failure as ever, signed in or not', async () => {
    const { page, router } = await render(<LoginScreen />, {
      path: '/login?p=some-token',
      route: '/login',
      api: fakeApi({}, { '/login/token': new ApiError(429, 'rate_limited', 'Too many attempts.') }),
      portal: portal(),
      loginSource: 'token',
    });
    await settleUntil(() => page.querySelector('[role="alert"], .alert') !== null);
    expect(router.state.location.search).toBe('?p=some-token');
  });

  it('tells a visitor without a session that the link is spent', async () => {
    const { page } = await render(<LoginScreen />, {
      path: '/login?p=spent-token',
      route: '/login',
      api: spent(),
      portal: portal(),
      loginSource: null,
    });
    await settleUntil(() => page.textContent!.includes(en['login.tokenInvalid']));
  });
});
