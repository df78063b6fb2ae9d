/**
 * The tenant of a Host header (docs/going-live.md "One host per publisher"): its name as DNS
 * compares it, in any case and with or without the root's trailing dot, whatever the port.
 */
import { describe, expect, it } from 'vitest';
import { TenantDirectory } from '../../../server/tenancy/tenantResolver';
import { makeServerTenant } from '../../support/builders';

const herald = makeServerTenant({ id: 'herald', hosts: ['abo.herald.example'] });
const directory = new TenantDirectory([herald]);

describe('TenantDirectory.forHost', () => {
  it('finds the tenant by its host name in any case, with a port and with a trailing dot', () => {
    for (const host of [
      'abo.herald.example',
      'ABO.Herald.example:8443',
      'abo.herald.example.',
      'abo.herald.example.:443',
    ])
      expect(directory.forHost(host)?.id, host).toBe('herald');
  });

  it('finds none for another name', () => {
    for (const host of [
      undefined,
      '',
      'herald.example',
      'abo.herald.example..',
      'abo.herald.example.evil.example',
    ])
      expect(directory.forHost(host), String(host)).toBeUndefined();
  });
});
