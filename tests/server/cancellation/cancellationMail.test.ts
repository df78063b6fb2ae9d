/**
 * The cancellation's confirmation mail names its date in the tenant's date style, as the page did
 * (account-flows.md §4 "Date display style from tenant"; engine/domain/cancellation.ts).
 */
import { describe, expect, it } from 'vitest';
import { cancellationMail } from '../../../server/cancellation/cancellationMail';
import type { CancellationDateStyle } from '../../../engine/domain/cancellation';

const values = {
  tenant: 'Technikwelt',
  subscription: 'Technikwelt Pro',
  orderNumber: '3024279707712',
  effectiveDate: '2027-01-05',
  exceptional: false,
  revocable: false,
};
const effective = (
  locale: 'de-DE' | 'en-GB',
  dateStyle: CancellationDateStyle,
  issueNumber: string | null = '1/2027',
  endOf?: 'term',
) =>
  /((?:Sie wird|It takes) .*)\.\n/.exec(
    cancellationMail(locale, { ...values, issueNumber, dateStyle, endOf }).text,
  )![1];

describe('the cancellation mail', () => {
  it('names the date in the style the page named it, in the mail’s language', () => {
    expect(effective('de-DE', 'date')).toBe('Sie wird wirksam zum 05.01.2027');
    expect(effective('de-DE', 'issue_number_date', '1/2027', 'term')).toBe(
      'Sie wird wirksam mit Ausgabe 1/2027 (05.01.2027) – Ende der Laufzeit',
    );
    expect(effective('en-GB', 'date')).toBe('It takes effect on 5 Jan 2027');
    expect(effective('en-GB', 'issue_number_date')).toBe('It takes effect with issue 1/2027 (5 Jan 2027)');
    // Issue numbers alone on the page: the mail, read later, names the day as well.
    expect(effective('en-GB', 'issue_number')).toBe('It takes effect with issue 1/2027 (on 5 Jan 2027)');
  });

  it('says the earliest possible date as the page does, with its day', () => {
    expect(effective('de-DE', 'issue_number_date', null)).toBe(
      'Sie wird zum frühestmöglichen Termin wirksam, dem 05.01.2027',
    );
    expect(effective('en-GB', 'date', null)).toBe(
      'It takes effect at the earliest possible date, 5 Jan 2027',
    );
  });
});
