import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'test-results',
      'playwright-report',
      'bench/data',
      'bench/dist',
      'bench/dist-before',
      'bench/_*',
      'bench/page/_*',
      'src/rad/stats/assembly',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.rad.json', './tsconfig.worker.json', './tsconfig.app.json', './tsconfig.node.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      curly: ['error', 'multi-line'],
      eqeqeq: 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // Rooms stay small (docs/architecture.md §1): no file over 350 lines, no function (components
  // included) over 100, blank lines and comments not counted.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'max-lines': ['error', { max: 350, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
    },
  },
  // The layer rule (docs/architecture.md §1): imports point down, ui → session → workers → io → rad; the CLI sits on io.
  {
    files: ['src/rad/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // `**/` so a file in any subfolder (src/rad/stats, src/rad/cells) is held too.
              group: [
                '**/io/*',
                '**/workers/*',
                '**/session/*',
                '**/ui/*',
                '**/cli/*',
                '**/server/*',
                'react',
                'react-dom',
                'comlink',
                'node:*',
              ],
              message:
                'src/rad is the pure core: it imports nothing from the project but itself, and no DOM, worker or Node module (docs/architecture.md §1).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/io/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/workers/*',
                '**/session/*',
                '**/ui/*',
                '**/cli/*',
                '**/server/*',
                'react',
                'react-dom',
                'comlink',
                'node:*',
              ],
              message: 'src/io may import src/rad only; Node reads belong in src/cli (docs/architecture.md §1).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/workers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/ui/*',
                '**/session',
                '**/session/*',
                '**/cli/*',
                '**/server/*',
                'react',
                'react-dom',
                'node:*',
              ],
              message:
                'src/workers runs inside workers: it may import src/io and src/rad, never the session, the UI or the CLI (docs/architecture.md §1).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/session/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/*', '**/cli/*', '**/server/*', 'react', 'react-dom', 'node:*'],
              message:
                'src/session is the main thread below the UI: it may import src/workers (their contracts and entries), src/io and src/rad (docs/architecture.md §1).',
            },
            {
              // Of src/workers, the contract and the entries only: the rest runs inside the workers.
              group: [
                '**/workers/*',
                '!**/workers/protocol',
                '!**/workers/comlinkErrors',
                '!**/workers/*.worker',
                '!**/workers/*.worker.ts',
                '!**/workers/*.worker.ts?worker',
              ],
              message:
                'src/session imports of src/workers only the contract (protocol.ts), comlinkErrors.ts and the *.worker.ts entries: the rest runs inside the workers (docs/architecture.md §1).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/workers/*', '**/session/*', '**/ui/*', 'react', 'react-dom', 'comlink'],
              message:
                'src/cli reads through src/io and src/rad, never the page or its workers (docs/architecture.md §1).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/workers/*', '**/session/*', '**/ui/*', '**/cli/*', 'react', 'react-dom', 'comlink'],
              message:
                'src/server is Node-only HTTP serving for the CLI; it never imports the page, its workers or the CLI.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/main.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Warns that the React Compiler would skip hooks calling useVirtualizer. The build does not run
      // the compiler (vite.config.ts); the table memoizes by hand, and the virtualizer is one stable object.
      'react-hooks/incompatible-library': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/io/*', '**/workers/*', '**/session/*', '**/cli/*', '**/server/*', '*.worker', '*.worker.ts'],
              message:
                'The UI reaches files through src/session (its index.ts, the one door) and the pure core in src/rad (docs/architecture.md §1).',
            },
          ],
        },
      ],
    },
    languageOptions: { globals: globals.browser },
  },
  {
    // The network is I/O: only src/io calls fetch (docs/architecture.md §1).
    files: ['src/{ui,session,workers,rad}/**/*.{ts,tsx}', 'src/main.tsx'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'fetch belongs in src/io (docs/architecture.md §1).' },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
)
