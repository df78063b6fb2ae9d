/**
 * One list of account event types (docs/going-live.md "Account events and webhooks"): the tenant
 * file's accountEventType (what an endpoint may ask for), the webhook body schema (one shape per
 * type) and the server's typed list name the same types in the same order.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_EVENT_TYPES } from '../../../server/events/eventTypes';

const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../../schemas/${file}`, import.meta.url), 'utf8'));

describe('account event types', () => {
  it('are the same in the tenant schema, the event schema and server/events', () => {
    const tenantTypes = read('tenant.schema.json').definitions.accountEventType.enum;
    const eventSchema = read('api/account-event.schema.json');
    const bodyTypes = eventSchema.oneOf.map((variant: { $ref: string }) => {
      const name = variant.$ref.replace('#/definitions/', '');
      return eventSchema.definitions[name].properties.type.const;
    });
    expect(bodyTypes).toEqual(tenantTypes);
    expect(ACCOUNT_EVENT_TYPES).toEqual(tenantTypes);
  });
});
