/**
 * "Did you mean" suggestions for misspelt keys and values. Case, hyphens, underscores and dots are
 * ignored first (`issue_calendar` -> `issue-calendar`, `logourl` -> `logoUrl`), then the closest
 * candidate by edit distance (with transpositions) wins if it is close enough for the length.
 */
function normalize(value: string): string {
  return value.toLowerCase().replace(/[-_.\s]/g, '');
}

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. Three
 * rows at a time (the swap looks two back), not a table: it runs for every candidate of every
 * misspelt key.
 */
export function editDistance(a: string, b: string): number {
  let beforeLast: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, beforeLast[j - 2] + 1);
      row.push(distance);
    }
    beforeLast = last;
    last = row;
  }
  return last[b.length];
}

/**
 * How two candidates at the same distance are told apart, so the answer never depends on the order
 * of the list: the smaller distance as written (case and separators count), then the closer length
 * (`UI` is more likely a swapped `IU` than a longer `I`), then alphabetical order.
 */
function rank(input: string, candidate: string, distance: number): [number, number, number] {
  return [distance, editDistance(input, candidate), Math.abs(input.length - candidate.length)];
}

function better(a: [number, number, number], b: [number, number, number]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** How many edits still count as a slip of the keyboard for a word of this length. */
function allowedEdits(length: number): number {
  return Math.max(1, Math.min(3, Math.floor(length / 3)));
}

/** The nearest candidate (other than `input` itself) with its distance after normalizing. */
function nearest(
  input: string,
  candidates: Iterable<string>,
): { best: string; distance: number } | undefined {
  const wanted = normalize(input);
  let found: { best: string; rank: [number, number, number] } | undefined;
  for (const candidate of [...candidates].sort()) {
    const normalized = normalize(candidate);
    if (candidate === input) continue;
    // The distance is at least the difference in length: such a candidate cannot come closer.
    if (found !== undefined && Math.abs(normalized.length - wanted.length) > found.rank[0]) continue;
    const candidateRank = rank(input, candidate, editDistance(wanted, normalized));
    if (found === undefined || better(candidateRank, found.rank))
      found = { best: candidate, rank: candidateRank };
  }
  return found && { best: found.best, distance: found.rank[0] };
}

/** The candidate closest to `input`, or undefined when none is plausibly meant. */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const found = nearest(input, candidates);
  if (!found) return undefined;
  return found.distance <= allowedEdits(Math.max(normalize(input).length, normalize(found.best).length))
    ? found.best
    : undefined;
}

/**
 * The text key closest to `input` ("did you mean" picks the nearest real key). Text keys
 * are `<feature>.<name>`: the part both share (`orders.`) says nothing about a typo, so the edits
 * allowed are judged by the length of the rest. `orders.titel` is then not "orders.filter" (3 edits
 * in a 6-letter name), while `shell.sesionExpird` still finds "shell.sessionExpired".
 */
export function closestTextKey(input: string, known: Iterable<string>): string | undefined {
  const found = nearest(input, known);
  if (!found) return undefined;
  const shared = sharedPrefixSegments(input, found.best);
  const rest = Math.max(normalize(input.slice(shared)).length, normalize(found.best.slice(shared)).length);
  return found.distance <= allowedEdits(rest) ? found.best : undefined;
}

/** Length of the leading dotted segments two keys share (`orders.filter.x`, `orders.filterX` -> 7). */
function sharedPrefixSegments(a: string, b: string): number {
  const as = a.split('.');
  const bs = b.split('.');
  let length = 0;
  for (let i = 0; i < Math.min(as.length, bs.length) - 1 && as[i] === bs[i]; i++) length += as[i].length + 1;
  return length;
}

/** At most this many valid values are listed in a hint; the closest ones first. */
export const LISTED_VALUES = 15;

/**
 * The valid text keys to name when `input` is unknown (the valid values instead of
 * pointing at source files): the keys of the same feature (the part before the first dot) when that
 * feature has texts, closest first and at most LISTED_VALUES of them; otherwise the features that
 * have texts, as `<feature>.…`.
 */
export function textKeyHint(input: string, known: Iterable<string>): string {
  const all = [...known].sort();
  const prefix = input.includes('.') ? input.slice(0, input.indexOf('.')) : undefined;
  const same = prefix === undefined ? [] : all.filter((key) => key.startsWith(`${prefix}.`));
  if (!same.length) {
    const features = [...new Set(all.map((key) => key.split('.')[0]))];
    return `text keys start with a feature id and a dot; features with texts: ${features.join(', ')}`;
  }
  if (same.length <= LISTED_VALUES) return `text keys of ${prefix}: ${same.join(', ')}`;
  const wanted = normalize(input);
  const closest = same
    .map((key) => ({ key, distance: editDistance(wanted, normalize(key)) }))
    .sort((a, b) => a.distance - b.distance || a.key.localeCompare(b.key))
    .slice(0, LISTED_VALUES)
    .map(({ key }) => key);
  return `closest text keys of ${prefix} (${same.length} in all): ${closest.join(', ')}, …`;
}

/** `. Did you mean "x"?` or nothing, to append to a message. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = closestMatch(input, candidates);
  return match === undefined ? '' : `. Did you mean "${match}"?`;
}
