/**
 * How a webhook endpoint is shown in logs and listings. Where one may go is the outbound guard's
 * business: tests/server/http/publicRequest.test.ts and, through the deliverer,
 * tests/server/events/webhookDelivery.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { redactedUrl } from '../../../server/events/webhookAddress';

describe('a webhook endpoint in logs and listings', () => {
  it('leaves the query string (it may carry a token) out of logs and listings', () => {
    expect(redactedUrl('https://crm.example/in?token=geheim')).toBe('https://crm.example/in?…');
    expect(redactedUrl('https://crm.example/in')).toBe('https://crm.example/in');
  });
});
