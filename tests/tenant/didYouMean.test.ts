import { describe, expect, it } from 'vitest';
import { closestMatch } from '../../tenant';
import { FEATURE_FLAGS } from '../../engine/domain/featureFlags';

describe('closestMatch', () => {
  it.each([
    ['cancelation', 'cancellation'],
    ['issue_calendar', 'issue-calendar'],
    ['Issue-Calendar', 'issue-calendar'],
    ['loyalty-program', 'loyalty-programme'],
    ['multi-user-licences', 'multi-user-licenses'],
    ['ecard', 'e-card'],
  ])('suggests a feature for "%s"', (input, expected) => {
    expect(closestMatch(input, FEATURE_FLAGS)).toBe(expected);
  });

  it('matches keys regardless of case and separators', () => {
    expect(closestMatch('logourl', ['logoUrl', 'logoTargetUrl'])).toBe('logoUrl');
    expect(closestMatch('logo_target_url', ['logoUrl', 'logoTargetUrl'])).toBe('logoTargetUrl');
  });

  it('suggests nothing when nothing is close', () => {
    expect(closestMatch('newsletter', FEATURE_FLAGS)).toBeUndefined();
    expect(closestMatch('xy', ['faq'])).toBeUndefined();
  });
});
