import { describe, expect, it } from 'vitest';
import { formatIban, ibanProblem, isValidBic, isValidIban, maskAccount } from '../../engine/domain/iban';

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
