/** Days, their formats and their order (engine/domain/dates.ts). */
import { describe, expect, it } from 'vitest';
import { addDays, compareIso, formatDate } from '../../engine/domain/dates';
import { LOCALES } from '../../engine/domain/locales';

const intlDay = (day: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

describe('formatDate', () => {
  it('writes a day as Intl writes it in the medium style, in de-DE and en-GB', () => {
    expect(formatDate('2027-02-01', 'de-DE')).toBe('01.02.2027');
    expect(formatDate('2027-02-01', 'en-GB')).toBe('1 Feb 2027');
    expect(formatDate('2027-09-30T23:30:00Z', 'en-GB')).toBe('30 Sept 2027');
  });

  it("agrees with Intl on every day from 1999 to 2031, in every locale's pattern", () => {
    for (const locale of LOCALES) {
      const differing: string[] = [];
      for (let day = '1999-01-01'; day < '2032-01-01'; day = addDays(day, 1)) {
        if (formatDate(day, locale) !== intlDay(day, locale)) differing.push(day);
      }
      expect(differing, locale).toEqual([]);
    }
    // Some 12,000 days per locale through Intl: seconds on a busy two-core machine.
  }, 60_000);

  it('leaves a locale without a pattern, and a year outside four digits, to Intl', () => {
    expect(formatDate('2027-02-01', 'de-AT')).toBe(intlDay('2027-02-01', 'de-AT'));
    expect(formatDate('0999-02-01', 'de-DE')).toBe(intlDay('0999-02-01', 'de-DE'));
    expect(formatDate('not a day', 'de-DE')).toBe('not a day');
    expect(formatDate(null, 'de-DE')).toBe('');
  });
});

describe('compareIso', () => {
  it('orders ISO days and instants by their time', () => {
    const days = ['2027-02-01', '2026-12-31', '2027-01-15', '2026-12-31'];
    expect([...days].sort(compareIso)).toEqual(['2026-12-31', '2026-12-31', '2027-01-15', '2027-02-01']);
    expect(compareIso('2027-02-01T09:00:00Z', '2027-02-01T10:00:00Z')).toBeLessThan(0);
    expect(compareIso('2027-02-01', '2027-02-01')).toBe(0);
    expect(compareIso('', '2027-02-01')).toBeLessThan(0);
  });
});
