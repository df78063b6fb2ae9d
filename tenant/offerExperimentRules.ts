/**
 * Rules of `offerExperiments` (docs/operators.md "Retention insights") beyond the schema, which
 * already asks for ids in the form of a code, at least two variants and weights above 0 (so their
 * sum is too).
 *
 * Offer ids and reason codes are not checked against data here: offers and cancellation reasons
 * live in the order system's data in the database (imported, or the demo seed), which a tenant
 * file is validated without — on an operator's laptop, in CI. The insights (studio page and
 * `portal insights`) name the ones the database does not have instead.
 */
import type { Problem } from './schemaErrors';

type Loose = Record<string, unknown>;

const isRecord = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The feature each flow's offers belong to. */
const FLOW_FEATURE: Record<string, string> = {
  cancellation: 'cancellation',
  renewal: 'renewal',
  upgrade: 'upgrade',
};

export function offerExperimentRules(tenant: Loose): Problem[] {
  const problems: Problem[] = [];
  const features = new Set(list(tenant.features));
  const showsRetentionOffers = isRecord(tenant.cancellation)
    ? tenant.cancellation.showRetentionOffers !== false
    : true;
  const ids = new Map<string, number>();
  const scopes = new Map<string, number>();
  list(tenant.offerExperiments).forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const base = `/offerExperiments/${index}`;
    const id = text(entry.id);
    const flow = text(entry.flow);
    const reason = text(entry.reason);
    if (id !== undefined) {
      const first = ids.get(id);
      if (first === undefined) ids.set(id, index);
      else
        problems.push({
          pointer: `${base}/id`,
          at: 'value',
          message: `duplicate offer experiment id "${id}" (also at /offerExperiments/${first}/id)`,
          hint: 'each experiment needs its own id: the id is part of every subscriber’s assignment',
        });
    }
    if (flow !== undefined && reason !== undefined && flow !== 'cancellation')
      problems.push({
        pointer: `${base}/reason`,
        at: 'key',
        message: `a reason is given for the ${flow} flow, which has no cancellation reasons`,
        hint: 'remove "reason", or set "flow": "cancellation"',
      });
    if (flow !== undefined) {
      const scope = `${flow}\u0000${reason ?? ''}`;
      const first = scopes.get(scope);
      if (first === undefined) scopes.set(scope, index);
      else
        problems.push({
          pointer: base,
          at: 'value',
          message: `a second offer experiment for the ${flow} flow${reason ? ` and reason "${reason}"` : ''} (also /offerExperiments/${first}); a subscriber can be in only one`,
          hint: 'end one of them (remove it), or give it another reason',
        });
      const feature = FLOW_FEATURE[flow];
      if (feature && !features.has(feature))
        problems.push({
          pointer: `${base}/flow`,
          at: 'value',
          message: `offer experiment for the ${flow} flow, but the feature "${feature}" is not in features`,
          hint: `add "${feature}" to features or remove this experiment`,
        });
      if (flow === 'cancellation' && !showsRetentionOffers)
        problems.push({
          pointer: `${base}/flow`,
          at: 'value',
          message:
            'offer experiment for the cancellation flow, but cancellation.showRetentionOffers is false: no offer is shown',
          hint: 'set cancellation.showRetentionOffers to true or remove this experiment',
        });
    }
    const variantIds = new Map<string, number>();
    list(entry.variants).forEach((variant, v) => {
      if (!isRecord(variant)) return;
      const variantId = text(variant.id);
      if (variantId !== undefined) {
        const first = variantIds.get(variantId);
        if (first === undefined) variantIds.set(variantId, v);
        else
          problems.push({
            pointer: `${base}/variants/${v}/id`,
            at: 'value',
            message: `duplicate variant id "${variantId}" (also at ${base}/variants/${first}/id)`,
            hint: 'each variant of an experiment needs its own id',
          });
      }
      const offers = new Map<string, number>();
      list(variant.offers).forEach((offer, o) => {
        if (typeof offer !== 'string') return;
        const first = offers.get(offer);
        if (first === undefined) offers.set(offer, o);
        else
          problems.push({
            pointer: `${base}/variants/${v}/offers/${o}`,
            at: 'value',
            message: `offer "${offer}" is listed twice in this variant (also at ${base}/variants/${v}/offers/${first})`,
            hint: 'remove one of them',
          });
      });
    });
  });
  return problems;
}
