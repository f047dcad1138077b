import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: REPO });

/** Lints one small fixture as if it lived at `file`, and names the rules that fired. */
async function rulesFiredFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

const IMPORT = 'no-restricted-imports';
const GLOBAL = 'no-restricted-globals';

// Each row: where the fixture lives, the forbidden line, and the rule that must refuse it.
const FORBIDDEN: [string, string, string][] = [
  ['shared/fixture.ts', "import { readFileSync } from 'node:fs';\nreadFileSync('x');", IMPORT],
  ['shared/fixture.ts', "import sharp from 'sharp';\nsharp();", IMPORT],
  ['shared/fixture.ts', "import Database from 'libsql';\nnew Database('x');", IMPORT],
  ['shared/fixture.ts', "import { request } from 'undici';\nvoid request;", IMPORT],
  ['shared/fixture.ts', "import { app } from 'electron';\nvoid app;", IMPORT],
  [
    'shared/fixture.ts',
    "import { startService } from '../service/index.js';\nvoid startService;",
    IMPORT,
  ],
  ['shared/fixture.ts', 'export const w = window.innerWidth;', GLOBAL],
  ['shared/fixture.ts', 'export const b = Buffer.alloc(1);', GLOBAL],
  ['renderer/fixture.ts', "import { request } from 'undici';\nvoid request;", IMPORT],
  ['renderer/fixture.ts', "import sharp from 'sharp';\nsharp();", IMPORT],
  ['renderer/fixture.ts', "import { WebSocketServer } from 'ws';\nvoid WebSocketServer;", IMPORT],
  ['renderer/fixture.ts', "import { Entry } from '@napi-rs/keyring';\nvoid Entry;", IMPORT],
  ['renderer/fixture.ts', "import { readFileSync } from 'fs';\nreadFileSync('x');", IMPORT],
  ['renderer/fixture.ts', "import { ipcRenderer } from 'electron';\nvoid ipcRenderer;", IMPORT],
  [
    'renderer/fixture.ts',
    "import { createStudioBackend } from '../electron/backend/index.js';\nvoid createStudioBackend;",
    IMPORT,
  ],
  [
    'renderer/fixture.ts',
    "import { startService } from '../service/index.js';\nvoid startService;",
    IMPORT,
  ],
  ['service/fixture.ts', 'export const w = window.location.href;', GLOBAL],
  ['service/fixture.ts', "export const e = document.createElement('div');", GLOBAL],
  ['service/fixture.ts', 'export const n = navigator.userAgent;', GLOBAL],
  ['service/fixture.ts', "import { app } from 'electron';\nvoid app;", IMPORT],
  ['service/fixture.ts', "import { App } from '../renderer/App.js';\nvoid App;", IMPORT],
  [
    'service/fixture.ts',
    "import { createStudioBackend } from '../electron/backend/index.js';\nvoid createStudioBackend;",
    IMPORT,
  ],
  ['electron/backend/fixture.ts', 'export const w = window.innerWidth;', GLOBAL],
  ['electron/backend/fixture.ts', "export const s = localStorage.getItem('x');", GLOBAL],
  ['electron/backend/fixture.ts', "import { app } from 'electron';\nvoid app;", IMPORT],
  [
    'electron/backend/fixture.ts',
    "import { router } from '../../service/http/router.js';\nvoid router;",
    IMPORT,
  ],
  [
    'electron/backend/fixture.ts',
    "import { App } from '../../renderer/App.js';\nvoid App;",
    IMPORT,
  ],
  ['electron/web/fixture.ts', 'export const d = document.title;', GLOBAL],
  [
    'electron/preload/fixture.ts',
    "import { readFileSync } from 'node:fs';\nreadFileSync('x');",
    IMPORT,
  ],
  [
    'electron/preload/fixture.ts',
    "import { createStudioBackend } from '../backend/index.js';\nvoid createStudioBackend;",
    IMPORT,
  ],
  ['electron/main/fixture.ts', "import { App } from '../../renderer/App.js';\nvoid App;", IMPORT],
  [
    'electron/main/fixture.ts',
    "import { router } from '../../service/http/router.js';\nvoid router;",
    IMPORT,
  ],
];

// The same places with what they may use: the rules must not fire on these.
const ALLOWED: [string, string][] = [
  ['renderer/vite.config.ts', "import path from 'node:path';\nexport const p = path;"],
  ['shared/fixture.ts', "import { z } from 'zod';\nexport const s = z.string();"],
  ['renderer/fixture.ts', "import { z } from 'zod';\nexport const s = z.string();"],
  [
    'service/fixture.ts',
    "import sharp from 'sharp';\nimport { readFileSync } from 'node:fs';\nexport const f = [sharp, readFileSync];",
  ],
  [
    'electron/backend/fixture.ts',
    "import { startService } from '../../service/index.js';\nimport { request } from 'undici';\nexport const f = [startService, request];",
  ],
  [
    'electron/preload/fixture.ts',
    "import { contextBridge } from 'electron';\nexport const c = contextBridge;",
  ],
];

describe('import boundaries', () => {
  it.each(FORBIDDEN)('%s refuses: %s', async (file, code, rule) => {
    expect(await rulesFiredFor(file, code)).toContain(rule);
  });

  it.each(ALLOWED)('%s allows: %s', async (file, code) => {
    expect(await rulesFiredFor(file, code)).toEqual([]);
  });

  it('renderer code follows the rules of hooks', async () => {
    const code = [
      "import { useState } from 'react';",
      'export function Broken({ on }: { on: boolean }) {',
      '  if (on) useState(0);',
      '  return null;',
      '}',
    ].join('\n');
    expect(await rulesFiredFor('renderer/fixture.tsx', code)).toContain(
      'react-hooks/rules-of-hooks',
    );
  });
});
