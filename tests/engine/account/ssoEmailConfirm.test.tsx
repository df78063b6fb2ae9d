// @vitest-environment jsdom
/**
 * The e-mail change's confirmation link on the account page (engine/features/sso-profile-page): once
 * confirmed, the session names the new address at once — the header's account menu reads it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import SsoProfileScreen from '../../../engine/features/sso-profile-page/SsoProfileScreen';
import { authStateAtom } from '../../../engine/core/authState';
import { cleanUp, click, fakeApi, portalConfig, render, settle, type } from '../../support/renderScreen';
import { ApiError } from '../../../engine/domain/apiError';

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

describe('a refused submit on the account page focuses the field it refused (WCAG 3.3.1)', () => {
  const renderProfile = async (answers: Record<string, unknown> = {}) => {
    const api = fakeApi(
      {
        '/sso-profile/getProfile': {
          email: 'anna@acme.example',
          hasPassword: true,
          passwordLogin: true,
          editEmail: true,
          deleteEmail: true,
        },
      },
      answers,
    );
    const { page } = await render(<SsoProfileScreen />, {
      api,
      path: '/sso-profile',
      portal: portalConfig(['core', 'account', 'features/sso-profile-page'], {
        features: ['sso-profile-page'],
      }),
    });
    await settle();
    return { page, api };
  };
  const buttonNamed = (page: HTMLElement, text: string) =>
    [...page.querySelectorAll('button')].find((b) => b.textContent === text)!;

  it('in the password form, by its own check and by the server’s wrong current password', async () => {
    const { page } = await renderProfile({
      '/sso-profile/executeUpdatePassword': new ApiError(400, 'wrong_password', 'wrong', {
        fields: { currentPassword: 'wrong' },
      }),
    });
    const save = buttonNamed(page, 'Save password');
    const form = save.closest('form')!;
    save.focus();
    await click(save);
    const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
    expect(first).not.toBeNull();
    expect(document.activeElement).toBe(first);
    // Filled in well, but the server refuses the current password: the focus goes there.
    const fields = [...form.querySelectorAll<HTMLInputElement>('input[type="password"]')];
    await type(fields[0], 'Lesen2025');
    await type(fields[1], 'Lesen2027x');
    await type(fields[2], 'Lesen2027x');
    save.focus();
    await click(save);
    await settle();
    expect(fields[0].getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(fields[0]);
  });

  it('in the e-mail form', async () => {
    const { page } = await renderProfile();
    const send = buttonNamed(page, 'Send confirmation link');
    send.focus();
    await click(send);
    const form = send.closest('form')!;
    expect(document.activeElement).toBe(form.querySelector('[aria-invalid="true"]'));
  });
});

describe('the password form’s refusal without a field', () => {
  it('says a first password was set meanwhile, which the form has no field for', async () => {
    const { failureTextKeys } = await import('../../../engine/features/sso-profile-page/ssoProfileOutcomes');
    expect(failureTextKeys(new ApiError(409, 'password_set_meanwhile', 'set meanwhile'))).toEqual({
      general: 'sso-profile-page.passwordSetMeanwhile',
    });
  });
});
