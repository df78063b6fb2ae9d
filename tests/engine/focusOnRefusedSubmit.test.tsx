// @vitest-environment jsdom
/**
 * A refused submit moves the focus to the first field it marks invalid, in every form that checks
 * its fields before sending (WCAG 3.3.1: keyboard and screen reader users land on the error, whose
 * message the field names by aria-describedby), not only in the address forms.
 */
import { type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  byText,
  choose,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  labelled,
  openDialog,
  polyfillDialogs,
  portalConfig,
  render,
  type,
} from '../support/renderScreen';
import { RegistrationForm } from '../../engine/features/login/RegistrationForm';
import { PasswordLoginForm } from '../../engine/features/login/PasswordLoginForm';
import ContactScreen from '../../engine/features/contact/ContactScreen';
import LinkSubscriptionScreen from '../../engine/features/link-subscription/LinkSubscriptionScreen';
import ECardScreen from '../../engine/features/e-card/ECardScreen';
import { ApiError } from '../../engine/domain/apiError';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const FOLDERS = [
  'core',
  'account',
  'features/login',
  'features/contact',
  'features/link-subscription',
  'features/e-card',
];
const en = engineTexts(FOLDERS)['en-GB'];

async function renderForm(element: ReactNode, tenant: Record<string, unknown> = {}, loggedIn = false) {
  const api = fakeApi({ '/e-cards': { cards: [] } }, {}, () => []);
  const { page } = await render(element, {
    api,
    path: '/',
    portal: portalConfig(FOLDERS, tenant),
    loginSource: loggedIn ? 'token' : null,
  });
  return { page, api };
}

/** Submits the form and says which element has the focus afterwards. */
async function refusedSubmit(page: HTMLElement, submitLabel: string) {
  const submit = byText(page, 'button', submitLabel) as HTMLButtonElement;
  submit.focus();
  await click(submit);
  return document.activeElement as HTMLElement;
}

const firstInvalid = (page: HTMLElement) => page.querySelector<HTMLElement>('form [aria-invalid="true"]');

describe('a sent form brings its outcome into view', () => {
  it('in the e-card form: the notice at the top takes the focus from the send button', async () => {
    const api = fakeApi(
      { '/e-cards': { cards: [] } },
      { '/e-cards': { sendAt: '2099-06-01T08:00:00.000Z', status: 'sent' } },
      () => [],
    );
    const { page } = await render(<ECardScreen />, {
      api,
      path: '/',
      portal: portalConfig(FOLDERS, {
        features: ['e-card'],
        eCard: { templates: [{ name: 'balloons', category: 'birthday', previewImageUrl: 'birthday.png' }] },
      }),
    });
    await click(page.querySelector<HTMLInputElement>('input[type="radio"]'));
    await type(labelled<HTMLInputElement>(page, `${en['e-card.from']} *`), 'Jonas');
    await type(labelled<HTMLInputElement>(page, `${en['e-card.to']} *`), 'Oma');
    await type(labelled<HTMLInputElement>(page, `${en['e-card.toEmail']} *`), 'oma@example.org');
    await type(labelled<HTMLTextAreaElement>(page, `${en['e-card.message']} *`), 'Alles Gute!');
    const send = byText(page, 'button', en['e-card.send']) as HTMLButtonElement;
    send.focus();
    await click(send);
    expect(api.calls.some((call) => call.method === 'POST' && call.path === '/e-cards')).toBe(true);
    const notice = page.querySelector<HTMLElement>('.notice-in-view');
    expect(notice?.querySelector('[role="status"]')).not.toBeNull();
    expect(document.activeElement).toBe(notice);
  });
});

describe('a refused submit focuses the first invalid field', () => {
  it('in the registration form', async () => {
    const { page, api } = await renderForm(<RegistrationForm onCancel={() => undefined} />);
    const focused = await refusedSubmit(page, en['login.createAccountSubmit']);
    expect(firstInvalid(page)?.getAttribute('name')).toBe('displayName');
    expect(focused).toBe(firstInvalid(page));
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('in the password sign-in form', async () => {
    const { page } = await renderForm(
      <PasswordLoginForm onForgot={() => undefined} onRegister={() => undefined} />,
    );
    const focused = await refusedSubmit(page, en['login.submitPassword']);
    expect(focused.getAttribute('type')).toBe('email');
    expect(focused).toBe(firstInvalid(page));
  });

  it('in the contact form', async () => {
    const { page } = await renderForm(<ContactScreen />, {
      features: ['contact-form'],
      contactForm: { activities: [{ activity: 'GENERAL', name: { 'en-GB': 'General' } }] },
    });
    await choose(page.querySelector<HTMLSelectElement>('select')!, 'GENERAL');
    const focused = await refusedSubmit(page, en['contact.submit']);
    expect(firstInvalid(page)).not.toBeNull();
    expect(focused).toBe(firstInvalid(page));
  });

  it("in the contact form the server refused, once the refusal's dialog is closed", async () => {
    const api = fakeApi(
      {},
      {
        '/contact': new ApiError(400, 'validation_failed', 'Please check the form.', [
          { field: '/contactDetails/lastName', code: 'invalid' },
        ]),
      },
      () => [],
    );
    const { page } = await render(<ContactScreen />, {
      api,
      path: '/',
      portal: portalConfig(FOLDERS, {
        features: ['contact-form'],
        contactForm: { activities: [{ activity: 'GENERAL', name: { 'en-GB': 'General' } }] },
      }),
      loginSource: null,
    });
    await choose(page.querySelector<HTMLSelectElement>('select')!, 'GENERAL');
    await type(labelled(page, `${en['contact.firstName']} *`), 'Ada');
    const lastName = labelled<HTMLInputElement>(page, `${en['contact.lastName']} *`);
    await type(lastName, 'Lovelace');
    await type(labelled(page, `${en['contact.email']} *`), 'ada@example.org');
    await type(page.querySelector<HTMLInputElement>('input[inputmode=numeric]')!, '4279706520');
    for (const area of page.querySelectorAll<HTMLTextAreaElement>('textarea'))
      await type(area, 'Where is my paper?');
    await click(byText(page, 'button', en['contact.submit'])!);
    expect(api.calls.some((call) => call.method === 'POST')).toBe(true);
    const dialog = openDialog(page)!;
    expect(dialog).toBeDefined();
    // No focus is sent behind the open modal dialog, where the fields are inert.
    expect(document.activeElement).not.toBe(lastName);
    await click(byText(dialog, 'button', en['shell.close'])!);
    expect(lastName.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(lastName);
  });

  it('in the link-subscription form', async () => {
    const { page } = await renderForm(
      <LinkSubscriptionScreen />,
      { features: ['manual-registration'] },
      true,
    );
    const focused = await refusedSubmit(page, en['link-subscription.submit']);
    expect(firstInvalid(page)).not.toBeNull();
    expect(focused).toBe(firstInvalid(page));
  });

  it('in the e-card form', async () => {
    const { page } = await renderForm(
      <ECardScreen />,
      {
        features: ['e-card'],
        eCard: { templates: [{ name: 'balloons', category: 'birthday', previewImageUrl: 'birthday.png' }] },
      },
      true,
    );
    const focused = await refusedSubmit(page, en['e-card.send']);
    // Nothing typed: the first field the form asks for is said and focused.
    expect(firstInvalid(page)).not.toBeNull();
    expect(focused).toBe(firstInvalid(page));
  });
});
