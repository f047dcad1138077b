import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getRawHeader } from '@electron/asar';
import { afterAll, describe, expect, it } from 'vitest';
import { icns, ico } from '../../scripts/make-icons.js';
import {
  launchProblems,
  losingInstanceProblems,
  type LaunchRecord,
} from '../../scripts/packaging/launch-findings.js';
import {
  makeStandInElectronDist,
  readFuseWire,
  standInExecutable,
} from '../../scripts/packaging/stand-in-electron.js';
import {
  REQUIRED_ENTRIES,
  inspectAsar,
  napiProblem,
  packageOf,
  runtimeInstallScripts,
  runtimePackagesOf,
} from '../../scripts/packaging/verify-package.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'package-verification-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the N-API check', () => {
  it('accepts an addon that exports napi_register_module_v1 only', () => {
    expect(
      napiProblem(Buffer.from('\0ELF…\0napi_register_module_v1\0napi_create_string\0')),
    ).toBeNull();
  });
  it('refuses a V8-ABI addon and one without the N-API entry', () => {
    expect(napiProblem(Buffer.from('\0node_register_module_v115\0'))).toMatch(/v115/);
    expect(
      napiProblem(Buffer.from('\0napi_register_module_v1\0node_register_module_v150\0')),
    ).toMatch(/v150/);
    expect(napiProblem(Buffer.from('\0some_other_symbol\0'))).toMatch(/does not export/);
  });
  it('passes the addons installed here', () => {
    const addon = path.resolve('node_modules/@libsql/linux-x64-gnu/index.node');
    expect(napiProblem(readFileSync(addon))).toBeNull();
  });
});

describe('the asar inspection', () => {
  const runtime = new Set(['libsql', '@libsql/linux-x64-gnu', 'sharp']);
  const files = [...REQUIRED_ENTRIES, '/node_modules/libsql/index.js'];
  const inspect = (extra: string[]) =>
    inspectAsar([...files, ...extra, '/dist', '/node_modules'], (e) => e.includes('.'), runtime);

  it('passes a package with the required files and runtime packages only', () => {
    const runtimeAll = new Set([...runtime, '@vladmandic/human', '@tensorflow/tfjs-backend-wasm']);
    const found = inspectAsar([...files, '/dist'], (e) => e.includes('.'), runtimeAll);
    expect(found).toEqual({
      missing: [],
      typescript: [],
      buildTools: [],
      unexpectedPackages: [],
      strayFiles: [],
    });
  });

  it('finds TypeScript, build tools, dev packages, stray files and missing entries', () => {
    const found = inspect([
      '/electron/main/main.ts',
      '/node_modules/tsx/dist/cli.mjs',
      '/node_modules/@esbuild/linux-x64/bin/esbuild.exe',
      '/node_modules/three/build/three.module.js',
      '/service/cli.js',
    ]);
    expect(found.typescript).toEqual(['/electron/main/main.ts']);
    expect(found.buildTools).toEqual([
      '/node_modules/tsx/dist/cli.mjs',
      '/node_modules/@esbuild/linux-x64/bin/esbuild.exe',
    ]);
    expect(found.unexpectedPackages).toEqual(
      expect.arrayContaining(['three', 'tsx', '@esbuild/linux-x64']),
    );
    expect(found.strayFiles).toEqual(['/electron/main/main.ts', '/service/cli.js']);
    const missing = inspectAsar(['/package.json'], () => true, runtime).missing;
    expect(missing).toContain('/dist/app/main.cjs');
  });

  it('names the package of nested and scoped paths', () => {
    expect(packageOf('/node_modules/@img/sharp-linux-x64/lib/x.node')).toBe('@img/sharp-linux-x64');
    expect(packageOf('/node_modules/libsql/node_modules/detect-libc/index.js')).toBe('detect-libc');
    expect(packageOf('/dist/app/main.cjs')).toBeNull();
  });
});

describe('the lockfile rules', () => {
  const lockfile: { packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }> } = {
    packages: {
      '': {},
      'node_modules/sharp': { hasInstallScript: true },
      'node_modules/esbuild': { dev: true, hasInstallScript: true },
      'node_modules/zod': { dev: true },
      'node_modules/libsql/node_modules/detect-libc': {},
    },
  };
  it('lists runtime packages without the dev ones', () => {
    expect([...runtimePackagesOf(lockfile)].sort()).toEqual(['detect-libc', 'sharp']);
  });
  it('flags a runtime install script unless allowScripts denies it', () => {
    expect(runtimeInstallScripts(lockfile, {})).toEqual([{ name: 'sharp', allowed: true }]);
    expect(runtimeInstallScripts(lockfile, { sharp: false })).toEqual([
      { name: 'sharp', allowed: false },
    ]);
  });
  it('holds for this project: no runtime install script may run', () => {
    const project = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Parameters<
      typeof runtimeInstallScripts
    >[0];
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      allowScripts: Record<string, boolean>;
    };
    expect(runtimeInstallScripts(project, manifest.allowScripts).filter((f) => f.allowed)).toEqual(
      [],
    );
  });
});

describe('the stand-in Electron', () => {
  it('carries a fuse wire that reads back', () => {
    expect(readFuseWire(standInExecutable())).toBe('101100011');
    expect(() => readFuseWire(Buffer.from('no sentinel'))).toThrow(/sentinel/);
  });
  it('has the files electron-builder reads, with a real default_app.asar', async () => {
    const dir = path.join(tmp, 'dist');
    await makeStandInElectronDist(dir, '45.4.1');
    expect(readFileSync(path.join(dir, 'version'), 'utf8')).toBe('45.4.1');
    expect(statSync(path.join(dir, 'electron')).mode & 0o111).not.toBe(0);
    expect(
      Object.keys(getRawHeader(path.join(dir, 'resources', 'default_app.asar')).header.files),
    ).toContain('package.json');
  });
});

describe('the icon containers', () => {
  const png = Buffer.from('\x89PNG fake');
  it('writes ICO entries with offsets that point at the images', () => {
    const file = ico([
      { size: 16, png },
      { size: 256, png },
    ]);
    expect(file.readUInt16LE(4)).toBe(2);
    expect(file.readUInt8(6 + 16)).toBe(0);
    const offset = file.readUInt32LE(6 + 16 + 12);
    expect(file.subarray(offset, offset + png.length)).toEqual(png);
  });
  it('writes ICNS with a total length and typed chunks', () => {
    const file = icns([{ type: 'ic07', png }]);
    expect(file.subarray(0, 4).toString()).toBe('icns');
    expect(file.readUInt32BE(4)).toBe(file.length);
    expect(file.subarray(8, 12).toString()).toBe('ic07');
  });
});

describe('the launch findings', () => {
  const STOPPED = '{"level":"info","msg":"the back end stopped"}\n';
  const good: LaunchRecord[] = [
    { call: 'app.requestSingleInstanceLock' },
    { call: 'protocol.handle', scheme: 'app' },
    {
      call: 'BrowserWindow.new',
      webPreferences: {
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        devTools: false,
      },
    },
    {
      call: 'Menu.setApplicationMenu',
      menu: [{ File: ['Open Library Folder', 'quit'] }, 'editMenu', { help: ['Open Logs Folder'] }],
    },
    { call: 'window.loadURL', url: 'data:' },
    { call: 'window.loadURL', url: 'app://studio/index.html' },
    {
      call: 'app-protocol.index',
      status: 200,
      contentType: 'text/html; charset=utf-8',
      isHtml: true,
      csp: "default-src 'self'",
    },
    { call: 'ipc.health.get', ok: true, service: { state: 'ready', embedded: true } },
    { call: 'service.openapi', status: 200, openapi: '3.1.0' },
    { call: 'workers', missing: [] },
    { call: 'before-quit', prevented: true },
    { call: 'before-quit', prevented: false },
  ];
  it('passes a full, clean launch', () => {
    expect(launchProblems(good, 0, STOPPED)).toEqual([]);
  });
  it('reports each missing step', () => {
    const without = (call: string) => good.filter((r) => r.call !== call);
    expect(launchProblems(without('service.openapi'), 0, STOPPED)).toEqual([
      'the embedded service was not reached',
    ]);
    expect(launchProblems(without('before-quit'), 0, STOPPED).join()).toMatch(/did not wait/);
    expect(launchProblems(good, 1, STOPPED)).toEqual(['the process exited with 1']);
    expect(launchProblems([...good, { call: 'stub.error', message: 'boom' }], 0, STOPPED)).toEqual([
      'stub: boom',
    ]);
    const devtools = good.map((r) =>
      r.call === 'Menu.setApplicationMenu'
        ? {
            ...r,
            menu: ['toggleDevTools', 'Open Library Folder', 'Open Logs Folder', 'quit', 'editMenu'],
          }
        : r,
    );
    expect(launchProblems(devtools, 0, STOPPED)).toEqual(['the packaged menu offers DevTools']);
  });
  it('requires the back end to have logged its stop', () => {
    expect(launchProblems(good, 0, '')).toEqual([
      'the log does not say the back end stopped before the app quit',
    ]);
  });

  it('checks that a losing second instance started nothing', () => {
    const lost: LaunchRecord[] = [
      { call: 'app.requestSingleInstanceLock', ours: false },
      { call: 'app.exit', code: 0 },
    ];
    expect(losingInstanceProblems(lost, 0, false)).toEqual([]);
    expect(losingInstanceProblems([...lost, { call: 'BrowserWindow.new' }], 0, true)).toEqual([
      'it started things anyway: BrowserWindow.new',
      'it opened the data folder (the back end or the service started)',
    ]);
  });
});
