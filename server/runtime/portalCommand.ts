import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout the `portal` command comes from (its package.json names `cli/bin.mjs` as `portal`). */
const CHECKOUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * How an operator calls the `portal` command from the folder this process runs in, for the hints
 * the commands and the server print: `npx portal` inside the checkout, where npm finds the package's
 * own command; `npx --prefix <checkout> portal` from any other folder (a deployment's), where plain
 * `npx portal` finds nothing to run, or another package of that name.
 */
export function portalCommand(cwd: string = process.cwd()): string {
  const relative = path.relative(CHECKOUT, path.resolve(cwd));
  const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  return inside ? 'npx portal' : `npx --prefix ${CHECKOUT} portal`;
}
