/** One line of a diff: kept, removed (`-`) or added (`+`). */
export interface DiffLine {
  kind: ' ' | '-' | '+';
  text: string;
}

/**
 * A plain line diff (longest common subsequence) of the file before and after a save, shown by
 * the studio before it writes, so an operator sees what a save changes. Tenant files are a few
 * hundred lines, so the quadratic table is cheap. Unchanged runs keep `context` lines around each
 * change.
 */
export function lineDiff(before: string, after: string, context = 2): DiffLine[] {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const all: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      all.push({ kind: ' ', text: a[i++] });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      all.push({ kind: '-', text: a[i++] });
    } else {
      all.push({ kind: '+', text: b[j++] });
    }
  }
  const near = (index: number) =>
    all.slice(Math.max(0, index - context), index + context + 1).some((line) => line.kind !== ' ');
  return all.filter((line, index) => line.kind !== ' ' || near(index));
}
