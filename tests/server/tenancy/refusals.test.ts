/**
 * The server's 403 for a capability rule carries the rule's reason (docs/architecture.md "Server: schema →
 * route → service → store"): the same reason checkCapability gives the button and the flow's notice.
 */
import { describe, expect, it } from 'vitest';
import { checkCapability } from '../../../engine/domain/capabilities';
import { FEATURE_FLAGS } from '../../../engine/domain/featureFlags';
import { HttpError } from '../../../server/http/errors';
import { capabilityContext, requireCapability } from '../../../server/tenancy/refusals';
import { makeServerTenant } from '../../support/builders';
import { makeSubscription, withRoles } from '../../support/subscriptionBuilder';

const tenant = makeServerTenant({ id: 'refusals', features: [...FEATURE_FLAGS] });

function refusal(run: () => void): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('requireCapability', () => {
  it('lets through what the rule allows', () => {
    const payer = withRoles(['AG', 'WE']);
    expect(checkCapability('paymentHistory', payer, capabilityContext(tenant)).allowed).toBe(true);
    expect(() => requireCapability('paymentHistory', payer, tenant)).not.toThrow();
  });

  it("answers 403 not_allowed with the rule's reason and says it in words", () => {
    const recipient = withRoles(['WE']);
    const error = refusal(() => requireCapability('paymentHistory', recipient, tenant));
    expect([error.status, error.code]).toEqual([403, 'not_allowed']);
    expect(error.details).toEqual({ capability: 'paymentHistory', reason: 'notOrderingParty' });
    expect(error.message).toMatch(/only the ordering party.*\(notOrderingParty/);
  });

  it('answers 403 feature_disabled with the reason featureDisabled', () => {
    const without = makeServerTenant({ id: 'refusals-bare', features: [] });
    const error = refusal(() => requireCapability('paymentHistory', makeSubscription(), without));
    expect([error.status, error.code]).toEqual([403, 'feature_disabled']);
    expect(error.details).toEqual({ capability: 'paymentHistory', reason: 'featureDisabled' });
    // Said with the tenant file's feature id, the switch an operator turns on.
    expect(error.message).toBe(
      `This portal does not offer payment-history for ${makeSubscription().publication}.`,
    );
  });
});
