import { describe, expect, it } from 'vitest';
import {
  allowedPaymentChanges,
  directDebitErrors,
  directDebitRequest,
  formatCardExpiry,
  paymentKindOfCodes,
  paymentMethodFields,
  paysInPopup,
  sepaErrors,
  sepaRequest,
} from '../../engine/domain/paymentMethodChange';

describe('payment method change rules (account-flows.md §4, §5)', () => {
  const config = {
    allowedChanges: {
      invoice: ['sepa', 'credit_card', 'invoice'] as const,
      sepa: ['sepa', 'paypal'] as const,
      credit_card: ['sepa'] as const,
    },
  };

  it('offers only the directions the tenant allows from the current method, and never invoice', () => {
    expect(allowedPaymentChanges(config, 'invoice')).toEqual(['sepa', 'credit_card']);
    expect(allowedPaymentChanges(config, 'paypal')).toEqual([]);
    expect(allowedPaymentChanges(undefined, 'sepa')).toEqual([]);
  });

  it('lets the active method be updated only when the tenant lists it under itself', () => {
    expect(allowedPaymentChanges(config, 'sepa')).toContain('sepa');
    expect(allowedPaymentChanges(config, 'credit_card')).not.toContain('credit_card');
  });

  it('sends card and PayPal through the payment popup', () => {
    expect(paysInPopup('credit_card')).toBe(true);
    expect(paysInPopup('paypal')).toBe(true);
    expect(paysInPopup('sepa')).toBe(false);
  });

  it('requires holder and IBAN and names the IBAN problem; a BIC only when given', () => {
    expect(sepaErrors({ debitAccountHolder: 'Anna Schmidt', iban: 'DE89 3704 0044 0532 0130 00' })).toEqual(
      [],
    );
    // The holder goes onto the mandate as typed: no emoji (as on an address label).
    expect(
      sepaErrors({ debitAccountHolder: 'Jonas 🙂 Becker', iban: 'DE89 3704 0044 0532 0130 00' }),
    ).toEqual([{ field: 'debitAccountHolder', code: 'not_printable' }]);
    expect(
      directDebitErrors({
        debitAccountHolder: 'Jonas 🎉 Becker',
        debitAccountNumber: '532013000',
        debitBankCode: '37040044',
      }).map((error) => error.code),
    ).toContain('not_printable');
    expect(sepaErrors({ debitAccountHolder: ' ', iban: '' })).toEqual([
      { field: 'debitAccountHolder', code: 'required' },
      { field: 'iban', code: 'required' },
    ]);
    expect(sepaErrors({ debitAccountHolder: 'A', iban: 'DE89370400440532013001' })).toEqual([
      { field: 'iban', code: 'checksum' },
    ]);
    expect(sepaErrors({ debitAccountHolder: 'A', iban: 'DE89370400440532013000', bic: 'COBA' })).toEqual([
      { field: 'bic', code: 'invalid' },
    ]);
    expect(sepaErrors({ debitAccountHolder: 'x'.repeat(71), iban: 'DE89370400440532013000' })).toEqual([
      { field: 'debitAccountHolder', code: 'too_long' },
    ]);
  });

  it('takes the holder and the bank name on one line only: no line break, control or direction character', () => {
    for (const holder of ['Anna\r\nX-Injected: 1', 'Anna\tSchmidt', 'Anna \u202eSchmidt'])
      expect(sepaErrors({ debitAccountHolder: holder, iban: 'DE89370400440532013000' })).toEqual([
        { field: 'debitAccountHolder', code: 'one_line' },
      ]);
    const account = { debitAccountNumber: '532013000', debitBankCode: '37040044' };
    expect(
      directDebitErrors({ ...account, debitAccountHolder: 'Anna\nB', debitBankName: 'Bank\nZwei' }),
    ).toEqual([
      { field: 'debitAccountHolder', code: 'one_line' },
      { field: 'debitBankName', code: 'one_line' },
    ]);
    expect(
      directDebitErrors({ ...account, debitAccountHolder: 'Anna Schmidt', debitBankName: 'Bank' }),
    ).toEqual([]);
  });

  it('sends the IBAN without spaces and an empty BIC as null', () => {
    expect(
      sepaRequest({ debitAccountHolder: ' Anna ', iban: 'de89 3704 0044 0532 0130 00', bic: '' }),
    ).toEqual({
      debitAccountHolder: 'Anna',
      iban: 'DE89370400440532013000',
      bic: null,
    });
    expect(
      sepaRequest({ debitAccountHolder: 'Anna', iban: 'DE89370400440532013000', bic: 'coba de ff' }).bic,
    ).toBe('COBADEFF');
  });

  it('requires holder, an account number of up to 10 digits and a bank code of 8 digits or a sort code of 6', () => {
    expect(
      directDebitErrors({
        debitAccountHolder: 'Anna',
        debitAccountNumber: '532013000',
        debitBankCode: '37040044',
      }),
    ).toEqual([]);
    expect(directDebitErrors({}).map((e) => e.field)).toEqual([
      'debitAccountHolder',
      'debitAccountNumber',
      'debitBankCode',
    ]);
    expect(
      directDebitErrors({
        debitAccountHolder: 'Anna',
        debitAccountNumber: '12345678901',
        debitBankCode: '3704004',
      }),
    ).toEqual([
      { field: 'debitAccountNumber', code: 'invalid' },
      { field: 'debitBankCode', code: 'invalid' },
    ]);
    // A British sort code (6 digits, written with dashes) and its 8-digit account number.
    const british = {
      debitAccountHolder: 'Olivia Turner',
      debitAccountNumber: '31926819',
      debitBankCode: '60-16-13',
    };
    expect(directDebitErrors(british)).toEqual([]);
    expect(directDebitRequest(british).debitBankCode).toBe('601613');
    expect(directDebitErrors({ ...british, debitBankCode: '60-16-1' })).toEqual([
      { field: 'debitBankCode', code: 'invalid' },
    ]);
    expect(
      directDebitRequest({
        debitAccountHolder: 'Anna',
        debitAccountNumber: '532 013 000',
        debitBankCode: '370 400 44',
        debitBankName: '',
      }),
    ).toEqual({
      debitAccountHolder: 'Anna',
      debitAccountNumber: '532013000',
      debitBankCode: '37040044',
      debitBankName: null,
    });
  });

  it('shows a card expiry YYYYMM as MM/YYYY', () => {
    expect(formatCardExpiry('202912')).toBe('12/2029');
    expect(formatCardExpiry(null)).toBe('');
  });
});

describe('payment method mapping (portal-core.md §9)', () => {
  it('writes E for direct debit, K for a card, 660 for PayPal, 000 for invoice and invoice for none', () => {
    const codes = (['direct_debit', 'sepa', 'credit_card', 'paypal', 'invoice', 'none'] as const).map(
      (kind) => {
        const fields = paymentMethodFields(kind);
        return [
          kind,
          fields.paymentMethod,
          fields.subOProcessedPMD.subPaymentMethod,
          fields.paymentDetails.paymentMethod,
        ];
      },
    );
    expect(codes).toEqual([
      ['direct_debit', 'E', null, 'direct_debit'],
      ['sepa', 'E', null, 'sepa'],
      ['credit_card', 'K', '001', 'credit_card'],
      ['paypal', '', '660', 'paypal'],
      ['invoice', '', '000', 'invoice'],
      ['none', '', null, 'invoice'],
    ]);
  });

  it("reads an order system's codes back as the kind (an import sends only the codes)", () => {
    expect(paymentKindOfCodes('E', null)).toBe('direct_debit');
    expect(paymentKindOfCodes('K', null)).toBe('credit_card');
    expect(paymentKindOfCodes('K', '001')).toBe('credit_card');
    expect(paymentKindOfCodes('', '660')).toBe('paypal');
    expect(paymentKindOfCodes('K', '660')).toBe('credit_card');
    expect(paymentKindOfCodes('', '000')).toBe('invoice');
    expect(paymentKindOfCodes('', '123')).toBe('credit_card');
    expect(paymentKindOfCodes('', null)).toBe('invoice');
    expect(paymentKindOfCodes(undefined, undefined)).toBe('invoice');
    // Each kind's own codes read back as that kind (SEPA shares direct debit's E).
    for (const kind of ['direct_debit', 'credit_card', 'paypal', 'invoice'] as const) {
      const fields = paymentMethodFields(kind);
      expect(paymentKindOfCodes(fields.paymentMethod, fields.subOProcessedPMD.subPaymentMethod)).toBe(kind);
    }
  });
});
