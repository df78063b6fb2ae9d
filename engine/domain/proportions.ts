/**
 * Statistics of save rates (docs/operators.md "Retention insights"): a rate's 95 % interval and
 * whether two rates differ by more than chance. Pure; the insights (server/insights/) and their
 * tests use it.
 */

/** z of a two-sided 95 % interval. */
export const Z_95 = 1.959963984540054;

/**
 * Wilson's score interval of `successes` out of `n`: unlike the normal approximation it stays
 * inside [0, 1] and is honest for small counts and for rates near 0 or 1, which a new experiment
 * has. Null when nothing was observed.
 */
export function wilsonInterval(successes: number, n: number, z = Z_95): { low: number; high: number } | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denominator = 1 + z2 / n;
  return {
    low: Math.max(0, (centre - margin) / denominator),
    high: Math.min(1, (centre + margin) / denominator),
  };
}

/** The standard normal distribution function (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * The two-proportion z-test with the pooled rate: is the difference of a/na and b/nb more than
 * chance at 5 %? Null when either side has nothing observed or the pooled rate is 0 or 1 (no
 * variance: the rates are equal).
 */
export function twoProportionTest(
  a: { successes: number; n: number },
  b: { successes: number; n: number },
): { z: number; pValue: number; significant: boolean } | null {
  if (a.n <= 0 || b.n <= 0) return null;
  const pooled = (a.successes + b.successes) / (a.n + b.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n));
  if (se === 0) return { z: 0, pValue: 1, significant: false };
  const z = (a.successes / a.n - b.successes / b.n) / se;
  const pValue = 2 * (1 - normalCdf(Math.abs(z)));
  return { z, pValue, significant: pValue < 0.05 };
}
