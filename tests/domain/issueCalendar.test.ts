import { describe, expect, it } from 'vitest';
import {
  calendarMode,
  calendarWindow,
  fuzzyFilter,
  fuzzyScore,
  isIsoDay,
  isIssuePaused,
  isPublicationInCalendar,
} from '../../engine/domain/issueCalendar';

describe('issue calendar rules', () => {
  it('spans today to the same day one month ahead, clamped to the month end (§9)', () => {
    expect(calendarWindow(new Date('2026-11-21T10:00:00Z'))).toEqual({
      dateFrom: '2026-11-21',
      dateTo: '2026-12-21',
    });
    expect(calendarWindow(new Date('2026-01-31T00:00:00Z'))).toEqual({
      dateFrom: '2026-01-31',
      dateTo: '2026-02-28',
    });
    expect(calendarWindow(new Date('2026-12-15T00:00:00Z'))).toEqual({
      dateFrom: '2026-12-15',
      dateTo: '2027-01-15',
    });
  });

  it('excludes publications blacklisted in the calendar settings or the feature blacklist, and everything when the flag is off', () => {
    const tenant = {
      features: ['issue-calendar'],
      publicationBlacklists: { 'issue-calendar': ['AAA'] },
      issueCalendar: { blacklistedPublications: ['BBB'] },
    };
    expect(isPublicationInCalendar(tenant, 'CCC')).toBe(true);
    expect(isPublicationInCalendar(tenant, 'AAA')).toBe(false);
    expect(isPublicationInCalendar(tenant, 'BBB')).toBe(false);
    expect(isPublicationInCalendar({ features: [] }, 'CCC')).toBe(false);
  });

  it('defaults the mode to any', () => {
    expect(calendarMode({ features: [] })).toBe('any');
    expect(calendarMode({ features: [], issueCalendar: { mode: 'list' } })).toBe('list');
  });

  it('matches characters in order, ignoring case and accents, substrings first', () => {
    expect(fuzzyScore('tgzt', 'Stadtkurier Tageszeitung')).toBeDefined();
    expect(fuzzyScore('zeitung', 'Stadtkurier Tageszeitung')).toBeLessThan(
      fuzzyScore('stzg', 'Stadtkurier Tageszeitung')!,
    );
    expect(fuzzyScore('xyz', 'Stadtkurier Tageszeitung')).toBeUndefined();
    expect(fuzzyScore('GARTEN FRÜ', 'Garten Frühling')).toBe(0);
    expect(fuzzyScore('muller', 'Müller Zeitung')).toBe(0);
    const items = ['Technikwelt Pro', 'Technikwelt Magazin', 'Technikwelt Digital'];
    expect(fuzzyFilter(items, 'mag', (s) => s)).toEqual(['Technikwelt Magazin']);
    expect(fuzzyFilter(items, '', (s) => s)).toEqual(items);
  });

  it('accepts only real calendar days as dates', () => {
    expect(isIsoDay('2026-02-28')).toBe(true);
    expect(isIsoDay('2026-02-30')).toBe(false);
    expect(isIsoDay('26-2-3')).toBe(false);
  });
});

describe('an issue inside the suspension', () => {
  it('is paused from its first to its last day, and on while it is open', () => {
    const pause = { suspendedFromDate: '2026-12-08', suspendedToDate: '2027-01-20' };
    expect(isIssuePaused(pause, '2026-12-07')).toBe(false);
    expect(isIssuePaused(pause, '2026-12-08')).toBe(true);
    expect(isIssuePaused(pause, '2027-01-20')).toBe(true);
    expect(isIssuePaused(pause, '2027-01-21')).toBe(false);
    expect(isIssuePaused({ ...pause, suspendedToDate: null }, '2030-01-01')).toBe(true);
    expect(isIssuePaused(null, '2026-12-10')).toBe(false);
  });
});
