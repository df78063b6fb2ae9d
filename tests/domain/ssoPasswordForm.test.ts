import { describe, expect, it } from 'vitest';
import { passwordFormProblems } from '../../engine/domain/ssoProfile';

/** account-flows.md §5 password on the SSO profile; every problem at its field, a too-long password never cut. */
describe('the SSO profile password form', () => {
  it('names every problem at once, by field', () => {
    expect(passwordFormProblems({ currentPassword: '', newPassword: '', repeatPassword: '' }, true)).toEqual({
      currentPassword: 'required',
      newPassword: 'required',
      repeat: 'required',
    });
  });

  it('says a 21-character password is too long instead of saving 20 of them', () => {
    const long = 'Abcdefghij1234567890X';
    expect(
      passwordFormProblems({ currentPassword: 'Lesen2026', newPassword: long, repeatPassword: long }, true),
    ).toEqual({ newPassword: 'too_long' });
  });

  it('wants the repeat and the same password; an unchanged one is refused', () => {
    expect(
      passwordFormProblems(
        { currentPassword: 'Lesen2026', newPassword: 'Lesen2027', repeatPassword: '' },
        true,
      ),
    ).toEqual({ repeat: 'required' });
    expect(
      passwordFormProblems(
        { currentPassword: 'Lesen2026', newPassword: 'Lesen2027', repeatPassword: 'Lesen2028' },
        true,
      ),
    ).toEqual({ repeat: 'mismatch' });
    expect(
      passwordFormProblems(
        { currentPassword: 'Lesen2026', newPassword: 'Lesen2026', repeatPassword: 'Lesen2026' },
        true,
      ),
    ).toEqual({ newPassword: 'unchanged' });
    expect(
      passwordFormProblems(
        { currentPassword: '', newPassword: 'Lesen2027', repeatPassword: 'Lesen2027' },
        false,
      ),
    ).toEqual({});
  });
});
