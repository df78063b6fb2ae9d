// @ts-check
/**
 * The project's lint rules (`npm run lint`, part of `npm test`). Besides typescript-eslint's and
 * React's rules it keeps the layers of README "Architecture" with import-x:
 *
 *   engine/domain ← engine/core ← engine/ui ← engine/account ← engine/features ← engine/app
 *   tenant (the tenant package) ← server ← cli
 *
 * An arrow points from what may be imported to what may import it. engine/domain is pure (no DOM,
 * no server) and is the only part of the engine the server and the tenant package may import;
 * features never import each other; only the app shell (engine/app) reads the feature registry.
 * Nothing imports in a circle. Beside them stand scripts/, bench/ and tests/, which import the
 * product and nothing of the product imports; scripts/ and bench/ never import tests/, nor scripts/
 * bench/. tests/lint/layers.test.ts proves each rule fails on a violation.
 */
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments';
import jsxA11y from 'eslint-plugin-jsx-a11y';

const features = readdirSync(new URL('./engine/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** What each layer may not import: `target` the importing files, `from` the forbidden ones. */
const layerZones = [
  {
    target: './engine/domain',
    from: ['./engine/core', './engine/ui', './engine/account', './engine/features', './engine/app'],
    message: 'engine/domain is the pure bottom layer: it imports nothing else of the engine.',
  },
  {
    target: './engine/core',
    from: ['./engine/ui', './engine/account', './engine/features', './engine/app'],
    message: 'engine/core may import engine/domain only.',
  },
  {
    target: './engine/ui',
    from: ['./engine/account', './engine/features', './engine/app'],
    message: 'engine/ui may import engine/core and engine/domain only.',
  },
  {
    target: './engine/account',
    from: ['./engine/features', './engine/app'],
    message:
      'engine/account is shared by the features: it never imports one, nor the registry (ask the shell through engine/core/featureRoutes).',
  },
  {
    target: './engine/features',
    from: ['./engine/app'],
    message: 'A feature never imports the app shell.',
  },
  ...features.map((feature) => ({
    target: `./engine/features/${feature}`,
    from: './engine/features',
    except: [`./${feature}`, './types.ts'],
    message: 'Features never import each other: move what both need to engine/account or engine/domain.',
  })),
  {
    target: './engine',
    from: ['./server', './cli', './studio', './tenant'],
    message:
      'The engine is the browser bundle: it never imports the server, the CLI, the studio or the tenant package.',
  },
  {
    target: ['./server', './tenant'],
    from: ['./engine/core', './engine/ui', './engine/account', './engine/features', './engine/app'],
    message: 'The server and the tenant package import only engine/domain of the engine.',
  },
  {
    target: ['./server', './tenant', './studio'],
    from: ['./cli'],
    message: 'cli is the top layer: nothing imports it.',
  },
  {
    target: './server',
    from: ['./studio'],
    message:
      'The server never imports the studio (a browser app and its Vite build): the CLI hands the build in (buildStudio).',
  },
  {
    target: './tenant',
    from: ['./server', './studio'],
    message: 'The tenant package is below the server and the studio.',
  },
  {
    target: ['./engine', './server', './tenant', './cli', './studio', './schemas'],
    from: ['./tests', './bench', './scripts'],
    message:
      'The product never imports tests/, bench/ or scripts/: they stand beside it and import it, not the other way round.',
  },
  {
    target: ['./scripts', './bench'],
    from: ['./tests'],
    message:
      'scripts/ and bench/ never import tests/: move what both need to scripts/ (as scripts/systemPostgres.ts).',
  },
  {
    target: './scripts',
    from: ['./bench'],
    message: 'scripts/ never imports bench/.',
  },
  {
    target: './studio',
    from: [
      './server',
      './engine/core',
      './engine/ui',
      './engine/account',
      './engine/features',
      './engine/app',
    ],
    message: 'The studio is a browser app of its own: it imports the tenant package and engine/domain only.',
  },
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'data/**', 'schemas/generated/**', 'docs/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: {
      'import-x': importX,
      'react-hooks': reactHooks,
      '@eslint-community/eslint-comments': eslintComments,
    },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      // Without a parser for .ts the cycle rule cannot read the modules an import leads to.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-self-import': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // A disable names its rule and says why: `// eslint-disable-next-line rule -- reason`.
      '@eslint-community/eslint-comments/require-description': 'error',
      '@eslint-community/eslint-comments/no-unlimited-disable': 'error',
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    // Accessibility of the markup as it is written (docs/architecture.md "Quality bars": every
    // screen keyboard-only, no serious accessibility violations); axe-core in the end-to-end suite
    // checks the pages as they render.
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // The engine's links come from engine/core/links.tsx: react-router's Link and NavLink bring
    // its framework mode's prefetching and view transitions to every page (docs/testing.md "Speed
    // and size").
    files: ['engine/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router',
              importNames: ['Link', 'NavLink'],
              message: 'Use Link and NavLink from engine/core/links.tsx.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON answers and poke at internals; typing every answer would only restate the
    // schemas the server already checks.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
