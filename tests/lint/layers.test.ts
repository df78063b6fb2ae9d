/**
 * The layer rules of eslint.config.js (docs/architecture.md "Architecture") fail on a deliberate violation:
 * each case lints one import line as if it stood in a file of the named folder and expects the rule to
 * name it. A lint run that passes proves nothing unless the rules can fail.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function problems(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

const violations: Array<[string, string, string, RegExp]> = [
  [
    'engine/domain imports engine/core',
    'engine/domain/x.ts',
    "import { createApiClient } from '../core/apiClient';",
    /engine\/domain is the pure bottom layer/,
  ],
  [
    'engine/core imports the app shell',
    'engine/core/x.ts',
    "import { Shell } from '../app/Shell';",
    /engine\/core may import engine\/domain only/,
  ],
  [
    'engine/ui imports engine/account',
    'engine/ui/x.ts',
    "import { useSaveFile } from '../account/useSaveFile';",
    /engine\/ui may import/,
  ],
  [
    'engine/account imports a feature',
    'engine/account/x.ts',
    "import { cancellationFeature } from '../features/cancellation';",
    /engine\/account is shared by the features/,
  ],
  [
    'a feature imports another feature',
    'engine/features/renewal/x.ts',
    "import { cancellationFeature } from '../cancellation';",
    /Features never import each other/,
  ],
  [
    'the engine imports the server',
    'engine/features/orders/x.ts',
    "import { createApp } from '../../../server/app';",
    /The engine is the browser bundle/,
  ],
  [
    'the server imports engine/core',
    'server/orders/x.ts',
    "import { createApiClient } from '../../engine/core/apiClient';",
    /The server and the tenant package import only engine\/domain/,
  ],
  [
    'the server imports the CLI',
    'server/studio/x.ts',
    "import { startCommand } from '../../cli/commands/start';",
    /cli is the top layer/,
  ],
  [
    'the server imports the studio build',
    'server/studio/x.ts',
    "import { ensureStudioBuilt } from '../../studio/buildStudio';",
    /The server never imports the studio/,
  ],
  [
    'the tenant package imports the server',
    'tenant/x.ts',
    "import { createApp } from '../server/app';",
    /The tenant package is below the server/,
  ],
  [
    'the studio imports the server',
    'studio/x.ts',
    "import { createApp } from '../server/app';",
    /The studio is a browser app of its own/,
  ],
  [
    'the server imports a test helper',
    'server/db/x.ts',
    "import { getTestDatabase } from '../../tests/support/database';",
    /The product never imports tests\/, bench\/ or scripts\//,
  ],
  [
    'the engine imports a script',
    'engine/domain/x.ts',
    "import { featureCatalogOf } from '../../scripts/featureCatalog';",
    /The product never imports tests\/, bench\/ or scripts\//,
  ],
  [
    'the CLI imports the benchmarks',
    'cli/commands/x.ts',
    "import { insightsSection } from '../../bench/insights';",
    /The product never imports tests\/, bench\/ or scripts\//,
  ],
  [
    'a script imports a test helper',
    'scripts/x.ts',
    "import { getTestDatabase } from '../tests/support/database';",
    /scripts\/ and bench\/ never import tests\//,
  ],
  [
    'a benchmark imports a test helper',
    'bench/x.ts',
    "import { getTestDatabase } from '../tests/support/database';",
    /scripts\/ and bench\/ never import tests\//,
  ],
  [
    'a script imports the benchmarks',
    'scripts/x.ts',
    "import { insightsSection } from '../bench/insights';",
    /scripts\/ never imports bench\//,
  ],
];

// Each lint resolves the imports the cycle rule follows: seconds apiece on a loaded machine.
describe('layer rules', { timeout: 60_000 }, () => {
  it.each(violations)('%s fails', async (_name, file, code, expected) => {
    const found = await problems(file, code);
    expect(found.some((text) => text.startsWith('import-x/no-restricted-paths') && expected.test(text))).toBe(
      true,
    );
  });

  it('lets a feature import engine/account and engine/domain', async () => {
    const found = await problems(
      'engine/features/renewal/x.ts',
      "import { href } from '../../domain/routeRefs';\nimport { useSaveFile } from '../../account/useSaveFile';\nexport const used = [href, useSaveFile];\n",
    );
    expect(found.filter((text) => text.startsWith('import-x/'))).toEqual([]);
  });

  it('lets a test import scripts/ and a script import the product', async () => {
    const fromTest = await problems(
      'tests/server/db/x.test.ts',
      "import { startSystemPostgres } from '../../../scripts/systemPostgres';\nexport const used = startSystemPostgres;\n",
    );
    const fromScript = await problems(
      'scripts/x.ts',
      "import { freePort } from '../server/db/embeddedPostgres';\nexport const used = freePort;\n",
    );
    expect([...fromTest, ...fromScript].filter((text) => text.startsWith('import-x/'))).toEqual([]);
  });

  it('wants a reason for every disable', async () => {
    const found = await problems(
      'engine/domain/x.ts',
      '// eslint-disable-next-line no-console\nconsole.log(1);\n',
    );
    expect(
      found.some((text) => text.startsWith('@eslint-community/eslint-comments/require-description')),
    ).toBe(true);
  });
});

describe('cycles', () => {
  const folder = path.join(root, 'tests/lint/.cycle-fixture');
  beforeAll(async () => {
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
    await writeFile(path.join(folder, 'b.ts'), "import { a } from './a';\nexport const b = () => a;\n");
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('fails on two modules that import each other', async () => {
    const [result] = await eslint.lintFiles([path.join(folder, 'a.ts')]);
    expect(result.messages.map((message) => message.ruleId)).toContain('import-x/no-cycle');
  });
});
