/**
 * The embedded PostgreSQL's check of the temporary folder (docs/architecture.md "The database"): as root,
 * with a TMPDIR the `postgres` user cannot pass through, initdb failed with "Permission denied" on a file
 * name; now the start stops before initdb with a message that names TMPDIR and the fix.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryFolderProblem } from '../../../server/db/embeddedPostgres';

const work = mkdtempSync(path.join(tmpdir(), 'portal-tmpdir-check-'));
chmodSync(work, 0o755);
const me = { uid: process.getuid!(), gid: process.getgid!() };
// A user that owns nothing here and is in none of its groups, like `postgres` under root.
const stranger = { uid: me.uid + 4321, gid: me.gid + 4321, groups: [me.gid + 4321] };

afterAll(() => {
  chmodSync(work, 0o755);
  rmSync(work, { recursive: true, force: true });
});

function folder(name: string, mode: number): string {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, mode);
  return dir;
}

describe('the temporary folder of the embedded PostgreSQL', () => {
  it('is fine when the user PostgreSQL runs as can pass through it and everything above it', async () => {
    expect(await temporaryFolderProblem(folder('open', 0o1777), stranger)).toBeUndefined();
    expect(await temporaryFolderProblem(folder('search-only', 0o711), stranger)).toBeUndefined();
    // Not root: PostgreSQL runs as the portal's own user, which only needs to write there.
    expect(await temporaryFolderProblem(folder('private', 0o700))).toBeUndefined();
  });

  it('names TMPDIR, the folder that stops the postgres user and the fix', async () => {
    const closed = folder('closed', 0o700);
    const problem = await temporaryFolderProblem(closed, stranger);
    expect(problem).toBe(
      `PostgreSQL runs as the "postgres" user, which cannot pass through the temporary folder ${closed} (TMPDIR) (mode 700, owner uid ${me.uid}); ` +
        'initdb reads its password file there and PostgreSQL opens its socket there. ' +
        `Allow it with chmod o+x ${closed}, or set TMPDIR to a folder the "postgres" user can reach (for example TMPDIR=/tmp).`,
    );
    expect(problem).toContain(`chmod o+x ${closed}`);
    expect(problem).toContain('TMPDIR=/tmp');

    // A folder above it is the one to name.
    const parent = folder('closed-parent', 0o755);
    const inside = folder('closed-parent/tmp', 0o1777);
    chmodSync(parent, 0o750);
    expect(await temporaryFolderProblem(inside, stranger)).toContain(
      `cannot pass through ${parent} (mode 750`,
    );
  });

  it('goes by owner, group and others as the kernel does', async () => {
    const ownerOnly = folder('owner-only', 0o700);
    expect(await temporaryFolderProblem(ownerOnly, me)).toBeUndefined();
    const group = folder('group', 0o710);
    expect(await temporaryFolderProblem(group, { uid: me.uid + 1, gid: me.gid })).toBeUndefined();
    expect(
      await temporaryFolderProblem(group, { uid: me.uid + 1, gid: me.gid + 1, groups: [me.gid] }),
    ).toBeUndefined();
    // The owner's bits decide for the owner, even where others could pass.
    const notOwner = folder('not-owner', 0o601);
    expect(await temporaryFolderProblem(notOwner, me)).toContain('cannot pass through');
  });

  it('says when TMPDIR is missing or not a folder', async () => {
    const missing = path.join(work, 'missing');
    expect(await temporaryFolderProblem(missing, stranger)).toBe(
      `the temporary folder ${missing} (TMPDIR) does not exist: create it, or set TMPDIR to a folder that exists (for example TMPDIR=/tmp).`,
    );
    const file = path.join(work, 'file');
    writeFileSync(file, '');
    expect(await temporaryFolderProblem(file)).toContain(
      `the temporary folder ${file} (TMPDIR) is not a folder`,
    );
  });

  it.skipIf(process.getuid?.() === 0)('says when the portal itself cannot write there', async () => {
    const readOnly = folder('read-only', 0o500);
    expect(await temporaryFolderProblem(readOnly)).toContain(
      `the portal cannot create files in the temporary folder ${readOnly} (TMPDIR, EACCES)`,
    );
  });
});
