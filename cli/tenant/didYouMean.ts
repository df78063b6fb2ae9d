/**
 * "Did you mean" suggestions for misspelt keys and values. Case, hyphens, underscores and dots are
 * ignored first (`issue_calendar` -> `issue-calendar`, `logourl` -> `logoUrl`), then the closest
 * candidate by edit distance (with transpositions) wins if it is close enough for the length.
 */
function normalize(value: string): string {
  return value.toLowerCase().replace(/[-_.\s]/g, '');
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[rows - 1][cols - 1];
}

/** The candidate closest to `input`, or undefined when none is plausibly meant. */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const wanted = normalize(input);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const distance = editDistance(wanted, normalize(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(1, Math.min(3, Math.floor(Math.max(wanted.length, normalize(best).length) / 3)));
  return bestDistance <= allowed ? best : undefined;
}

/** `. Did you mean "x"?` or nothing, to append to a message. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = closestMatch(input, candidates);
  return match === undefined ? '' : `. Did you mean "${match}"?`;
}
