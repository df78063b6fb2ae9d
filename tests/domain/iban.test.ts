import { describe, expect, it } from 'vitest';
import {
  formatIban,
  ibanProblem,
  isValidBic,
  isValidIban,
  maskAccount,
  maskBankAccount,
} from '../../engine/domain/iban';

describe('IBAN rules (account-flows.md §5)', () => {
  it('accepts real IBANs of Germany and the UK, with or without spaces', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('gb29nwbk60161331926819')).toBe(true);
  });

  it('names the problem: checksum, length, country, format, required', () => {
    expect(ibanProblem('DE89370400440532013001')).toBe('checksum');
    expect(ibanProblem('DE8937040044053201300')).toBe('length');
    expect(ibanProblem('XX89370400440532013000')).toBe('country');
    expect(ibanProblem('1234')).toBe('format');
    expect(ibanProblem('  ')).toBe('required');
  });

  it('formats in groups of four and masks all but the last four characters', () => {
    expect(formatIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(maskAccount('DE89370400440532013000')).toBe('DE••••••••••••••••3000');
    expect(maskAccount('123456')).toBe('••••56');
    expect(maskAccount('1234567890')).toBe('••••••••90');
  });

  it('checks a BIC of 8 or 11 characters', () => {
    expect(isValidBic('COBADEFFXXX')).toBe(true);
    expect(isValidBic('COBADEFF')).toBe(true);
    expect(isValidBic('COBADE')).toBe(false);
  });
});

describe('maskBankAccount', () => {
  it('masks whatever the order system sends back: IBAN, account and card number, PayPal address', () => {
    expect(
      maskBankAccount({
        debitAccountHolder: 'Jonas Becker',
        iban: 'DE89370400440532013000',
        debitAccountNumber: '0532013000',
        ccNumber: '4242 4242 4242 4242',
        paypalEmail: 'jonas.becker@example.org',
      }),
    ).toEqual({
      debitAccountHolder: 'Jonas Becker',
      iban: 'DE••••••••••••••••3000',
      debitAccountNumber: '••••••••00',
      ccNumber: '•••• 4242',
      paypalEmail: 'j***@e***.org',
    });
  });

  it('leaves a value masked already as it is', () => {
    const masked = { iban: 'DE••••••••••••••••3000', ccNumber: '•••• 4242', paypalEmail: 'j***@e***.org' };
    expect(maskBankAccount(masked)).toEqual(masked);
  });
});
