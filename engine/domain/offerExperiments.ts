/**
 * Offer experiments (docs/operators.md "Retention insights"): which variant of a flow's offers a
 * subscriber sees. Pure, so the server (which filters the offers it lists), `portal validate` and
 * the tests share one rule.
 *
 * A subscriber is assigned by a hash of tenant, experiment id and account id mapped onto the
 * variants' cumulative weights: the same account always lands in the same variant (no table of
 * assignments to keep), a new experiment id shuffles everyone anew, and the shares follow the
 * weights (tests/domain/offerExperiments.test.ts checks both over 10,000 simulated subscribers).
 */

export type ExperimentFlow = 'cancellation' | 'renewal' | 'upgrade';

export interface ExperimentVariant {
  id: string;
  weight: number;
  offers: readonly string[];
}

export interface OfferExperiment {
  id: string;
  flow: ExperimentFlow;
  reason?: string;
  variants: readonly ExperimentVariant[];
}

export interface ExperimentAssignment {
  id: string;
  variant: string;
}

/**
 * 32-bit FNV-1a over the UTF-16 code units, finished with murmur3's avalanche step: FNV alone
 * leaves ids that differ in their last character close together, which would bunch neighbouring
 * account ids into one variant.
 */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The experiment that runs in a flow for a reason: one naming the reason before one without (a
 * tenant may try something special for "too expensive" and something general for the rest).
 */
export function experimentFor<E extends OfferExperiment>(
  experiments: readonly E[] | undefined,
  flow: ExperimentFlow,
  reason?: string | null,
): E | undefined {
  const ofFlow = (experiments ?? []).filter((e) => e.flow === flow);
  if (flow === 'cancellation' && reason) {
    const forReason = ofFlow.find((e) => e.reason === reason);
    if (forReason) return forReason;
  }
  return ofFlow.find((e) => e.reason === undefined);
}

/** The variant of one subscriber (account id) in one experiment; always the same for the same inputs. */
export function assignVariant<V extends ExperimentVariant>(
  tenantId: string,
  experiment: { id: string; variants: readonly V[] },
  subscriberId: string,
): V {
  const usable = experiment.variants.filter((v) => Number.isFinite(v.weight) && v.weight > 0);
  const variants = usable.length > 0 ? usable : experiment.variants;
  const total = usable.length > 0 ? usable.reduce((sum, v) => sum + v.weight, 0) : variants.length;
  // The unit interval point of this subscriber, scaled to the weights.
  const point = (hash32(`${tenantId}\u0000${experiment.id}\u0000${subscriberId}`) / 2 ** 32) * total;
  let upTo = 0;
  for (const variant of variants) {
    upTo += usable.length > 0 ? variant.weight : 1;
    if (point < upTo) return variant;
  }
  return variants[variants.length - 1];
}

/** The offers a variant shows: those of the flow it names, in the flow's order. */
export function offersOfVariant<O extends { id: string }>(
  offers: readonly O[],
  variant: Pick<ExperimentVariant, 'offers'>,
): O[] {
  const shown = new Set(variant.offers);
  return offers.filter((offer) => shown.has(offer.id));
}

/** The experiment and variant of a subscriber in a flow (reason), or null when none runs. */
export function experimentAssignment(
  tenant: { id: string; offerExperiments?: readonly OfferExperiment[] },
  flow: ExperimentFlow,
  reason: string | null | undefined,
  subscriberId: string,
): { experiment: OfferExperiment; variant: ExperimentVariant; assignment: ExperimentAssignment } | null {
  const experiment = experimentFor(tenant.offerExperiments, flow, reason);
  if (!experiment || experiment.variants.length === 0) return null;
  const variant = assignVariant(tenant.id, experiment, subscriberId);
  return { experiment, variant, assignment: { id: experiment.id, variant: variant.id } };
}
