// @vitest-environment jsdom
/**
 * The magic-link form (engine/features/login/MagicLinkForm.tsx): after the link is sent, a mistyped
 * address can be mended, with what was typed still in the field; past the limit of links, the
 * links already sent are pointed to.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MagicLinkForm } from '../../../engine/features/login/MagicLinkForm';
import { ApiError } from '../../../engine/domain/apiError';
import {
  byText,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  portalConfig,
  render,
  type,
} from '../../support/renderScreen';

afterEach(cleanUp);

const FOLDERS = ['core', 'features/login'];
const en = engineTexts(FOLDERS)['en-GB'];

describe('a sent sign-in link', () => {
  it('lets the visitor go back to the address they typed', async () => {
    const api = fakeApi({}, { '/login/magic-link': {} });
    const { page } = await render(<MagicLinkForm />, {
      api,
      path: '/login',
      portal: portalConfig(FOLDERS),
      loginSource: null,
    });
    const field = () => page.querySelector<HTMLInputElement>('input[name="email"]')!;
    await type(field(), 'ana@exmaple.org');
    await click(byText(page, 'button', en['login.sendLink']));
    expect(page.textContent).toContain(en['login.linkSentTitle']);
    await click(byText(page, 'button', en['login.otherAddress']));
    expect(field().value).toBe('ana@exmaple.org');
  });
});

describe('too many links asked for', () => {
  it('points to the links already sent before saying when to ask again', async () => {
    const limited = new ApiError(429, 'rate_limited', 'Too many attempts.', { retryAfterSeconds: 745 });
    const api = fakeApi({}, { '/login/magic-link': limited });
    const { page } = await render(<MagicLinkForm />, {
      api,
      path: '/login',
      portal: portalConfig(FOLDERS),
      loginSource: null,
    });
    await type(page.querySelector<HTMLInputElement>('input[name="email"]')!, 'ana@example.org');
    await click(byText(page, 'button', en['login.sendLink']));
    const alert = page.querySelector('[role="alert"]')?.textContent ?? '';
    expect(alert).toContain(en['login.linkRateLimited']);
    expect(alert).toContain('13 minutes');
    expect(page.querySelector<HTMLInputElement>('input[name="email"]')!.value).toBe('ana@example.org');
  });
});
