/** One line of a diff: kept, removed (`-`) or added (`+`); `@` starts a hunk (`@@ line N @@`). */
export interface DiffLine {
  kind: ' ' | '-' | '+' | '@';
  text: string;
}

/**
 * A plain line diff (longest common subsequence) of the file before and after a save, shown by
 * the studio before it writes, so an operator sees what a save changes. Tenant files are a few
 * hundred lines, so the quadratic table is cheap. Unchanged runs keep `context` lines around each
 * change; each run of shown lines starts with a hunk line naming where it is in the saved file, so
 * two changes far apart never read as neighbours.
 */
export function lineDiff(before: string, after: string, context = 2): DiffLine[] {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  // Each line with its number in the saved file (a removed line: the next line's).
  const all: Array<DiffLine & { line: number }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      all.push({ kind: ' ', text: a[i++], line: ++j });
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      all.push({ kind: '-', text: a[i++], line: j + 1 });
    } else {
      all.push({ kind: '+', text: b[j++], line: j });
    }
  }
  const near = (index: number) =>
    all.slice(Math.max(0, index - context), index + context + 1).some((line) => line.kind !== ' ');
  const shown: DiffLine[] = [];
  let previous = -2;
  all.forEach((line, index) => {
    if (line.kind === ' ' && !near(index)) return;
    if (index !== previous + 1) shown.push({ kind: '@', text: `@@ line ${line.line} @@` });
    shown.push({ kind: line.kind, text: line.text });
    previous = index;
  });
  return shown;
}
