// Import boundaries from DESIGN.md are enforced here, not by goodwill.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const forbid = (names, patterns, message) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: names.map((name) => ({ name, message })),
      patterns: patterns.map((group) => ({ group: [group], message })),
    },
  ],
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      ...forbid(
        [...nodeBuiltins, 'electron', 'react', 'react-dom'],
        ['**/service/**', '**/electron/**', '**/renderer/**'],
        'shared/ is isomorphic: no Node, DOM, Electron or app-layer imports.',
      ),
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'localStorage',
          'process',
          'Buffer',
          'require',
          '__dirname',
        ].map((name) => ({ name, message: 'shared/ must run in Node and the browser alike.' })),
      ],
    },
  },
  {
    files: ['service/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: forbid(
      ['electron'],
      ['**/electron/**', '**/renderer/**'],
      'The local service is Node-only and independent of the studio.',
    ),
  },
  {
    files: ['electron/backend/**/*.ts', 'electron/web/**/*.ts'],
    rules: forbid(
      ['electron'],
      ['**/renderer/**', '**/electron/main/**', '**/electron/preload/**', '**/service/**/!(index)'],
      'The studio back end and web mode are Node-only: no electron, renderer or service internals.',
    ),
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: forbid(
      [...nodeBuiltins],
      ['**/electron/backend/**', '**/electron/web/**', '**/service/**', '**/renderer/**'],
      'The preload only bridges the contract: electron and shared/ only.',
    ),
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: forbid(
      [],
      ['**/renderer/**', '**/service/**/!(index)'],
      'Main wires windows and IPC to the back end; it never reaches into the renderer or the service.',
    ),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: forbid(
      [...nodeBuiltins, 'electron'],
      ['**/service/**', '**/electron/**'],
      'The renderer reaches the back end only through window.studio.',
    ),
  },
);
