/**
 * What logs, audit rows and traces keep of a request's address (server/http/recordedPath.ts): no
 * query, no download key, no e-mail address, and no operator API key pasted into the path.
 */
import { describe, expect, it } from 'vitest';
import { recordedPath, recordedQuery } from '../../../server/http/recordedPath';
import { newOperatorKeySecret } from '../../../server/operator/keys/operatorKeys';

describe('recordedPath', () => {
  it('leaves out the query, a download key and an e-mail address', () => {
    expect(recordedPath('/t/acme/api/login?token=secret')).toBe('/t/acme/api/login');
    expect(recordedPath('/t/acme/api/files/abc123/invoice.pdf')).toBe('/t/acme/api/files/…/invoice.pdf');
    expect(recordedPath('/t/acme/operator/v1/licences/301~4000000001~anna%40example.org')).toBe(
      '/t/acme/operator/v1/licences/301~4000000001~…',
    );
  });

  it('leaves out an operator key sent in the path instead of the header, whatever the tenant', () => {
    for (const tenant of ['technikwelt', 'stadt-kurier']) {
      const key = newOperatorKeySecret(tenant);
      expect(recordedPath(`/t/${tenant}/operator/v1/whoami/${key}`)).toBe(
        `/t/${tenant}/operator/v1/whoami/pk_…`,
      );
      expect(recordedPath(`/t/${tenant}/operator/v1/${key}`)).not.toContain(key.slice(-20));
    }
    // A record key that only starts like one stays.
    expect(recordedPath('/t/acme/operator/v1/publications/pk_short')).toBe(
      '/t/acme/operator/v1/publications/pk_short',
    );
  });

  it('keeps the names of a query, never its values', () => {
    expect(recordedQuery('/x?token=abc&lang=de')).toBe('token=…&lang=…');
    expect(recordedQuery('/x')).toBeUndefined();
  });
});
