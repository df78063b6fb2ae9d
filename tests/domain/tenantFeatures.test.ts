import { describe, expect, it } from 'vitest';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';

describe('isFeatureOn', () => {
  const tenant = { features: ['renewal', 'issue-calendar'], publicationBlacklists: { renewal: ['SKS'] } };

  it('is off for a flag the tenant does not list', () => {
    expect(isFeatureOn(tenant, 'cancellation')).toBe(false);
    expect(isFeatureOn(tenant, 'cancellation', 'SKT')).toBe(false);
  });

  it('is on for a listed flag without a publication', () => {
    expect(isFeatureOn(tenant, 'renewal')).toBe(true);
  });

  it('is off for a publication on the flag blacklist and on for others', () => {
    expect(isFeatureOn(tenant, 'renewal', 'SKS')).toBe(false);
    expect(isFeatureOn(tenant, 'renewal', 'SKT')).toBe(true);
    expect(isFeatureOn(tenant, 'issue-calendar', 'SKS')).toBe(true);
  });
});
