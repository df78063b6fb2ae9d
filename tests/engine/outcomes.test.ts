import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../engine/core/apiClient';
import {
  DOWNLOAD_OUTCOMES,
  INVOICE_OUTCOMES,
  invoiceFailureOf,
  invoiceOutcomeOf,
} from '../../engine/account/outcomes';
import { linkOutcomeKey, linkOutcomeOf } from '../../engine/features/link-subscription/linkOutcomes';

const ENGINE = path.resolve(__dirname, '../../engine');
const keys = new Set(
  ['core/texts.json', 'account/texts.json', 'features/link-subscription/texts.json'].flatMap((file) =>
    Object.keys(JSON.parse(readFileSync(path.join(ENGINE, file), 'utf8'))['en-GB']),
  ),
);

describe('named outcomes of the account actions', () => {
  it('names each invoice request answer (portal-core.md §4) and the once-a-day refusal', () => {
    expect(invoiceOutcomeOf({ status: 'forwarded' })).toBe('invoice:forwarded');
    expect(invoiceOutcomeOf({ status: 'something else' })).toBe('invoice:failed');
    expect(invoiceFailureOf(new ApiError(409, 'processing', 'already requested today'))).toBe(
      'invoice:processing',
    );
    expect(invoiceFailureOf(new ApiError(500, 'internal', 'boom'))).toBe('invoice:failed');
    expect(invoiceFailureOf(new TypeError('offline'))).toBe('invoice:failed');
  });

  it('names each link result, verification failures by method, unknown statuses as unknown', () => {
    expect(linkOutcomeOf({ status: 'already_linked' })).toBe('link:already_linked');
    // By customer number the message names the number, not a subscription.
    expect(linkOutcomeOf({ status: 'already_linked', bpNumber: '0015427198' })).toBe(
      'link:already_linked_customer',
    );
    expect(
      linkOutcomeOf({ status: 'already_linked', bpNumber: '0015427198', orderNumber: '4279720237' }),
    ).toBe('link:already_linked');
    expect(linkOutcomeOf({ status: 'already_linked_bp', bpNumber: '0015427198' })).toBe(
      'link:already_linked_bp',
    );
    expect(
      linkOutcomeOf({ status: 'already_linked_bp', bpNumber: '0015427198', orderNumber: '4279720237' }),
    ).toBe('link:already_linked_own');
    expect(linkOutcomeOf({ status: 'verification_failed', method: 'bp_number_zip' })).toBe(
      'link:verification_failed:bp_number_zip',
    );
    expect(linkOutcomeOf({ status: 'verification_failed' })).toBe('link:verification_failed:zip');
    expect(linkOutcomeOf({ status: 'new_status' as never })).toBe('link:unknown');
    expect(linkOutcomeKey('link:verification_failed:name')).toBe(
      'link-subscription.result.verification_failed.name',
    );
  });

  it('maps every outcome to texts that exist', () => {
    for (const texts of [...Object.values(INVOICE_OUTCOMES), ...Object.values(DOWNLOAD_OUTCOMES)]) {
      expect(keys).toContain(texts.titleKey);
      expect(keys).toContain(texts.textKey);
    }
    const statuses = [
      'no_email_on_record',
      'validation_failed',
      'not_found',
      'not_supported',
      'already_linked',
      'already_linked_bp',
      'both_found_bp',
      'unknown',
    ];
    for (const status of statuses)
      expect(keys).toContain(linkOutcomeKey(linkOutcomeOf({ status: status as never }) as never));
    expect(keys).toContain(linkOutcomeKey('link:already_linked_customer'));
    expect(keys).toContain(linkOutcomeKey('link:already_linked_own'));
    for (const method of ['order_number_name_zip', 'bp_number_zip', 'name', 'zip'] as const) {
      expect(keys).toContain(
        linkOutcomeKey(linkOutcomeOf({ status: 'verification_failed', method }) as never),
      );
    }
  });
});
