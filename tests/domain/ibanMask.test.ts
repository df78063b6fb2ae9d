import { describe, expect, it } from 'vitest';
import { formatIban, ibanForeignCharacters, ibanMaskProblem, ibanMaxLength } from '../../engine/domain/iban';

/** account-flows.md §5 "IBAN mask: 2 letters, 2 digits, then groups of four"; said at the field, nothing dropped. */
describe('the IBAN mask while typing', () => {
  it('refuses characters no IBAN has and names them, once each', () => {
    const typed = 'DE12 ABCD 😀<S CRIP T>';
    expect(ibanMaskProblem(typed)).toBe('characters');
    expect(ibanForeignCharacters(typed)).toEqual(['😀', '<', '>']);
  });

  it('wants two letters, then two digits, as far as typed', () => {
    expect(ibanMaskProblem('D')).toBeNull();
    expect(ibanMaskProblem('DE8')).toBeNull();
    expect(ibanMaskProblem('1E89')).toBe('format');
    expect(ibanMaskProblem('DEX9')).toBe('format');
    expect(ibanMaskProblem('de89 3704')).toBeNull();
  });

  it("says too long beyond the country's length (else 34), without cutting", () => {
    expect(ibanMaxLength('DE89')).toBe(22);
    expect(ibanMaskProblem('DE89 3704 0044 0532 0130 00')).toBeNull();
    expect(ibanMaskProblem('DE89 3704 0044 0532 0130 001')).toBe('too_long');
    expect(ibanMaskProblem(`XX89${'1'.repeat(31)}`)).toBe('too_long');
    expect(formatIban('DE89 3704 0044 0532 0130 001')).toBe('DE89 3704 0044 0532 0130 001');
  });

  it('groups by characters, so an emoji is never split in two', () => {
    expect(formatIban('DE12ABCD😀<S')).toBe('DE12 ABCD 😀<S');
  });
});
