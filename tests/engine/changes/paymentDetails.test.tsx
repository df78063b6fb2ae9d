// @vitest-environment jsdom
/**
 * The payment details page in jsdom with a fake API (account-flows.md §2 "Payment details", §4,
 * §5 "SEPA", §8): what it offers, what the IBAN form shows and sends.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentDetails } from '../../../schemas/generated/account-changes';
import { ApiError } from '../../../engine/domain/apiError';
import PaymentDetailsScreen from '../../../engine/features/payment-method-change/PaymentDetailsScreen';
import { makeSubscription } from '../../support/subscriptionBuilder';
import {
  byText,
  cleanUp,
  click,
  en,
  fakeApi,
  labelled,
  openDialog,
  polyfillDialogs,
  render,
  type,
} from './harness';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const S = '/subscriptions/SKZ4123456789';
const subscription = makeSubscription();
const onInvoice: PaymentDetails = {
  paymentMethod: 'invoice',
  account: null,
  allowedChanges: ['sepa', 'credit_card'],
};
const onSepa: PaymentDetails = {
  paymentMethod: 'sepa',
  account: { debitAccountHolder: 'Anna Schmidt', iban: 'DE••••••••••••••••3000', bic: null },
  allowedChanges: ['sepa'],
  pendingChange: null,
};
const route = 'subscriptions/:id/payment-details';

async function openSepaForm(details: PaymentDetails, post: Record<string, unknown> = {}) {
  const api = fakeApi({ [S]: subscription, [`${S}/payment-details`]: details }, post);
  const { page } = await render(<PaymentDetailsScreen />, { api, path: `${S}/payment-details`, route });
  await click(byText(page, 'button', en['payment-method-change.change']));
  return { api, page };
}

describe('payment details page', () => {
  it('shows the current method and offers only the allowed changes, the current one as an update', async () => {
    const api = fakeApi({ [S]: subscription, [`${S}/payment-details`]: onSepa });
    const { page } = await render(<PaymentDetailsScreen />, { api, path: `${S}/payment-details`, route });
    const current = page.querySelector('[data-testid="payment-current"]')!;
    expect(current.textContent).toContain(en['payment-method-change.method.sepa']);
    // Grouped as printed, so a narrow screen breaks it between groups, never inside one.
    expect(current.textContent).toContain('DE•• •••• •••• •••• ••30 00');
    expect(page.textContent).toContain(en['payment-method-change.effectNote']);

    await click(byText(page, 'button', en['payment-method-change.change']));
    const radios = [...page.querySelectorAll<HTMLInputElement>('input[name="payment-method"]')];
    expect(radios.map((radio) => radio.value)).toEqual(['sepa']);
    expect(radios[0].parentElement!.textContent).toBe(en['payment-method-change.update.sepa']);
    // The only choice is chosen; the holder on record is filled in.
    expect(
      labelled<HTMLInputElement>(page, `${en['payment-method-change.field.debitAccountHolder']} *`).value,
    ).toBe('Anna Schmidt');
  });

  it('shows the IBAN in groups of four while it is typed and refuses a wrong checksum before sending', async () => {
    const { api, page } = await openSepaForm(onInvoice);
    await click(page.querySelector<HTMLInputElement>('input[value="sepa"]'));
    await type(
      labelled<HTMLInputElement>(page, `${en['payment-method-change.field.debitAccountHolder']} *`),
      'Anna Schmidt',
    );
    const iban = labelled<HTMLInputElement>(page, `${en['payment-method-change.field.iban']} *`);
    await type(iban, 'de89370400440532013001');
    expect(iban.value).toBe('DE89 3704 0044 0532 0130 01');

    await click(byText(page, 'button', en['payment-method-change.save']));
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
    expect(iban.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(iban.getAttribute('aria-describedby')!.split(' ').pop()!)!;
    expect(error.textContent).toBe(en['payment-method-change.error.iban.checksum']);
    expect(document.activeElement).toBe(iban);
  });

  it('sends holder and IBAN without spaces and confirms that the change applies at the end of the payment period', async () => {
    const { api, page } = await openSepaForm(onInvoice, { [`${S}/payment-details/sepa`]: onSepa });
    await click(page.querySelector<HTMLInputElement>('input[value="sepa"]'));
    await type(
      labelled<HTMLInputElement>(page, `${en['payment-method-change.field.debitAccountHolder']} *`),
      ' Anna Schmidt ',
    );
    await type(
      labelled<HTMLInputElement>(page, `${en['payment-method-change.field.iban']} *`),
      'DE89 3704 0044 0532 0130 00',
    );
    await click(byText(page, 'button', en['payment-method-change.save']));

    expect(api.calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: `${S}/payment-details/sepa`,
      body: { debitAccountHolder: 'Anna Schmidt', iban: 'DE89370400440532013000', bic: null },
    });
    const success = openDialog(page)!;
    expect(success.querySelector('h2')!.textContent).toBe(en['payment-method-change.successTitle']);
    expect(success.textContent).toContain(en['payment-method-change.successText']);
    // The answer is the new state.
    expect(page.querySelector('[data-testid="payment-current"]')!.textContent).toContain(
      en['payment-method-change.method.sepa'],
    );
  });

  it("shows the server's IBAN problem at the field", async () => {
    const refusal = new ApiError(400, 'validation_failed', 'invalid', { fields: { iban: 'country' } });
    const { page } = await openSepaForm(onInvoice, { [`${S}/payment-details/sepa`]: refusal });
    await click(page.querySelector<HTMLInputElement>('input[value="sepa"]'));
    await type(
      labelled<HTMLInputElement>(page, `${en['payment-method-change.field.debitAccountHolder']} *`),
      'Anna Schmidt',
    );
    await type(
      labelled<HTMLInputElement>(page, `${en['payment-method-change.field.iban']} *`),
      'DE89370400440532013000',
    );
    await click(byText(page, 'button', en['payment-method-change.save']));
    expect(page.textContent).toContain(en['payment-method-change.error.iban.country']);
    expect(openDialog(page)).toBeUndefined();
  });

  it('opens the loading-error dialog with back when the details cannot be loaded', async () => {
    const api = fakeApi({
      [S]: subscription,
      [`${S}/payment-details`]: new ApiError(500, 'internal', 'boom'),
    });
    const { page } = await render(<PaymentDetailsScreen />, { api, path: `${S}/payment-details`, route });
    const dialog = openDialog(page)!;
    expect(dialog.querySelector('h2')!.textContent).toBe(en['payment-method-change.loadErrorTitle']);
    await click(byText(dialog, 'button', en['account.flow.back']));
    expect(page.querySelector('[data-testid="elsewhere"]')!.textContent).toBe(S);
  });
});
