// The runtime boundaries of ARCHITECTURE.md are enforced here, not by goodwill;
// tests/lint/import-boundaries.test.ts proves that each rule fires.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** Packages that run only under Node: native addons, Node servers and clients, build tools. */
const nodeOnlyPackages = [
  'sharp',
  'libsql',
  'better-sqlite3',
  '@napi-rs/keyring',
  'undici',
  'busboy',
  'ws',
  'cli-progress',
  'tsx',
  'esbuild',
  'vite',
  'electron-builder',
  'playwright-core',
  '@playwright/test',
  'gltf-validator',
  '@gltf-transform/core',
];

/** Browser globals: Node code that touches them only fails at run time, so lint refuses them. */
const domGlobals = [
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'HTMLElement',
  'HTMLCanvasElement',
  'Image',
  'FileReader',
  'alert',
  'requestAnimationFrame',
];

/**
 * `names` are packages (and their subpaths); `layers` are regular expressions
 * over the import string, so that relative paths (`../backend/x.js`) are
 * caught as surely as long ones.
 */
const forbid = (names, layers, message) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: names.map((name) => ({ name, message })),
      patterns: [
        ...(names.length ? [{ group: names.map((name) => `${name}/*`), message }] : []),
        ...layers.map((regex) => ({ regex, message })),
      ],
    },
  ],
});
/** A layer folder anywhere in a relative or absolute import path. */
const layer = (...folders) => `(^|/)(${folders.join('|')})/`;
/** The service through anything but its public entry. */
const serviceInternals = '(^|/)service/(?!index\\.js$)';

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
        [...nodeBuiltins, ...nodeOnlyPackages, 'electron', 'react', 'react-dom'],
        [layer('service', 'electron', 'renderer')],
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
      [layer('electron', 'renderer')],
      'The local service is Node-only and independent of the studio.',
    ),
  },
  {
    files: ['electron/backend/**/*.ts', 'electron/web/**/*.ts', 'electron/cli/**/*.ts'],
    rules: forbid(
      ['electron'],
      [layer('renderer', 'main', 'preload'), serviceInternals],
      'The studio back end and web mode are Node-only: no electron, renderer or service internals.',
    ),
  },
  {
    files: [
      'service/**/*.ts',
      'electron/backend/**/*.ts',
      'electron/web/**/*.ts',
      'electron/cli/**/*.ts',
    ],
    rules: {
      'no-restricted-globals': [
        'error',
        ...domGlobals.map((name) => ({ name, message: 'Node-only code: there is no DOM here.' })),
      ],
    },
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: forbid(
      [...nodeBuiltins],
      [layer('backend', 'web', 'service', 'renderer')],
      'The preload only bridges the contract: electron and shared/ only.',
    ),
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: forbid(
      [],
      [layer('renderer'), serviceInternals],
      'Main wires windows and IPC to the back end; it never reaches into the renderer or the service.',
    ),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    // The Vite configs beside the UI are build scripts: they run in Node, never in the page.
    ignores: ['renderer/**/vite.config.ts'],
    rules: forbid(
      [...nodeBuiltins, ...nodeOnlyPackages, 'electron'],
      [layer('service', 'electron')],
      'The renderer reaches the back end only through window.studio.',
    ),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
