/**
 * `npm run package:check`: packs the Linux app offline and proves it would
 * start. Steps: build everything; make a stand-in Electron dist; pack
 * `--dir --linux`; then verify the asar's contents, that every native addon
 * is N-API, that no TypeScript or build tool ships, the fuses, the lockfile's
 * install scripts, and finally start the packed main under Node with a stub
 * `electron` module (scripts/packaging/stub-electron.ts). Prints the payload
 * size; exits non-zero on any failure.
 *
 * `--skip-build` reuses dist/ (for iterating on the checks).
 */
import { extractAll, listPackage, statFile } from '@electron/asar';
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeStandInElectronDist, readFuseWire } from './packaging/stand-in-electron.js';
import type { StubRecord } from './packaging/stub-electron.js';
import {
  MB,
  PAYLOAD_GOAL_BYTES,
  PAYLOAD_LIMIT_BYTES,
  findFiles,
  inspectAsar,
  napiProblem,
  runtimeBuildChains,
  runtimeInstallScripts,
  runtimePackagesOf,
  sizeOf,
} from './packaging/verify-package.js';
import { launchProblems, losingInstanceProblems } from './packaging/launch-findings.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const skipBuild = process.argv.includes('--skip-build');
const failures: string[] = [];

function say(line: string): void {
  process.stdout.write(line + '\n');
}
function check(name: string, problems: readonly string[]): void {
  if (problems.length === 0) return say(`  ✓ ${name}`);
  say(`  ✗ ${name}`);
  for (const problem of problems.slice(0, 20)) say(`      ${problem}`);
  if (problems.length > 20) say(`      … and ${problems.length - 20} more`);
  failures.push(name);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  say(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) {
    say(`✗ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
}

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};
const lockfile = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<
    string,
    { dev?: boolean; hasInstallScript?: boolean; dependencies?: Record<string, string> }
  >;
};
const electronVersion = (
  JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

const work = mkdtempSync(path.join(tmpdir(), 'package-check-'));
try {
  // 1. Build.
  if (!skipBuild) {
    run('npm', ['run', 'build:renderer']);
    run('npm', ['run', 'build:session']);
    run('npm', ['run', 'build:electron']);
  }

  // 2. A stand-in Electron dist, 3. pack.
  const electronDist = path.join(work, 'electron-dist');
  await makeStandInElectronDist(electronDist, electronVersion);
  // The packed build stays in release/linux-unpacked for inspection; only scratch files go to tmp.
  const output = path.join(ROOT, 'release');
  rmSync(path.join(output, 'linux-unpacked'), { recursive: true, force: true });
  run(
    'npx',
    [
      'electron-builder',
      '--dir',
      '--linux',
      '--x64',
      '--publish',
      'never',
      `-c.electronDist=${electronDist}`,
      `-c.electronVersion=${electronVersion}`,
    ],
    // electron-builder must not try to download anything here.
    { ELECTRON_BUILDER_OFFLINE: 'true', CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
  );
  const unpackedDir = path.join(output, 'linux-unpacked');
  const resources = path.join(unpackedDir, 'resources');
  const asar = path.join(resources, 'app.asar');
  const asarUnpacked = path.join(resources, 'app.asar.unpacked');
  say(`\nVerifying the packed app in ${path.relative(ROOT, unpackedDir)}:`);

  // 4a. The asar's contents.
  const entries = listPackage(asar, { isPack: false }).map((entry) =>
    entry.split(path.sep).join('/'),
  );
  const isFile = (entry: string) => {
    const stat = statFile(asar, entry.slice(1), false) as { files?: unknown; link?: unknown };
    return !('files' in stat) && !('link' in stat);
  };
  const findings = inspectAsar(entries, isFile, runtimePackagesOf(lockfile));
  check(
    'the asar holds the main bundle, workers, preload, UI, face models, wasm and icon',
    findings.missing.map((m) => `missing ${m}`),
  );
  check('no TypeScript sources or declarations', findings.typescript);
  check(
    'no build tools (tsx, esbuild, TypeScript, vite, electron-builder, node-gyp…)',
    findings.buildTools,
  );
  check(
    'node_modules holds only runtime dependencies (everything else is bundled)',
    findings.unexpectedPackages.map(
      (name) => `${name} is not a runtime dependency in package-lock.json`,
    ),
  );
  check('nothing beside the bundles, the UI, the assets and package.json', findings.strayFiles);

  // 4b. Native addons.
  const addons = existsSync(asarUnpacked) ? findFiles(asarUnpacked, /\.node$/) : [];
  const packedAddons = entries.filter((e) => e.endsWith('.node') && isFile(e));
  check(`every .node file is N-API (${addons.length} found)`, [
    ...(addons.length === 0 ? ['no .node files were unpacked'] : []),
    ...addons.flatMap((file) => {
      const problem = napiProblem(readFileSync(file));
      return problem ? [`${path.relative(resources, file)}: ${problem}`] : [];
    }),
    ...packedAddons
      .filter((e) => !existsSync(path.join(asarUnpacked, e)))
      .map((e) => `${e} is inside the asar, not unpacked`),
  ]);
  say(`      ${addons.map((file) => path.relative(asarUnpacked, file)).join('\n      ')}`);

  // 4c. Nothing compiles at install.
  check('no runtime dependency runs an install script or pulls in a native build chain', [
    ...runtimeInstallScripts(lockfile, manifest.allowScripts ?? {})
      .filter((found) => found.allowed)
      .map((found) => `${found.name} has an install script and allowScripts does not deny it`),
    ...runtimeBuildChains(lockfile),
  ]);

  // Fuses, as electron-builder flipped them in the stand-in executable.
  const wire = readFuseWire(readFileSync(path.join(unpackedDir, 'avatar-studio')));
  const expected = '01001100';
  check(
    `fuses flipped as configured (${wire})`,
    wire.startsWith(expected) ? [] : [`expected ${expected}…, found ${wire}`],
  );

  // 4d. The packed main under Node, with a stub electron.
  const app = path.join(work, 'app');
  extractAll(asar, app);
  if (existsSync(asarUnpacked)) cpSync(asarUnpacked, app, { recursive: true });
  const stubDir = path.join(app, 'node_modules', 'electron');
  mkdirSync(stubDir, { recursive: true });
  await build({
    entryPoints: [path.join(ROOT, 'scripts/packaging/stub-electron.ts')],
    outfile: path.join(stubDir, 'index.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  writeFileSync(
    path.join(stubDir, 'package.json'),
    JSON.stringify({ name: 'electron', main: 'index.js' }),
  );
  const main = (
    JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as { main: string }
  ).main;
  const launch = (name: string, env: Record<string, string> = {}) => {
    const recordFile = path.join(work, `${name}-calls.jsonl`);
    const home = path.join(work, `${name}-home`);
    mkdirSync(home);
    return new Promise<{
      code: number | null;
      output: string;
      records: StubRecord[];
      home: string;
    }>((resolve) => {
      const child = spawn(process.execPath, [path.join(app, main)], {
        cwd: home,
        // No AVATAR_API_* from this shell: the embedded service's own token is used.
        env: {
          PATH: process.env.PATH,
          HOME: home,
          STUB_ELECTRON_RECORD: recordFile,
          STUB_ELECTRON_HOME: home,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        const records = existsSync(recordFile)
          ? readFileSync(recordFile, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line) as StubRecord)
          : [];
        resolve({ code, output, records, home });
      });
    });
  };
  say(`\nStarting the packed main (${main}) under Node ${process.version} with a stub electron…`);
  const first = await launch('first');
  const { records } = first;
  const logFile = path.join(first.home, 'logs', 'main.log');
  const problems = launchProblems(
    records,
    first.code,
    existsSync(logFile) ? readFileSync(logFile, 'utf8') : '',
  );
  check('the packed main starts, serves the UI, answers through IPC and quits cleanly', problems);
  if (problems.length > 0) say(first.output.split('\n').slice(-40).join('\n'));
  const second = await launch('second', { STUB_ELECTRON_LOCK: 'held' });
  const secondProblems = losingInstanceProblems(
    second.records,
    second.code,
    existsSync(path.join(second.home, 'userData')),
  );
  check('a second launch without the lock exits before starting anything', secondProblems);
  if (secondProblems.length > 0) say(second.output.split('\n').slice(-20).join('\n'));
  for (const r of records.filter((r) =>
    ['ipc.health.get', 'service.openapi', 'app-protocol.index', 'workers'].includes(r.call),
  ))
    say(`      ${JSON.stringify(r)}`);

  // 5. Payload.
  const asarBytes = sizeOf(asar);
  const unpackedBytes = sizeOf(asarUnpacked);
  const payload = asarBytes + unpackedBytes;
  say(
    `\nPayload: ${(payload / MB).toFixed(1)} MB (app.asar ${(asarBytes / MB).toFixed(1)} MB + app.asar.unpacked ${(unpackedBytes / MB).toFixed(1)} MB); limit ${PAYLOAD_LIMIT_BYTES / MB} MB, goal ${PAYLOAD_GOAL_BYTES / MB} MB: ${payload <= PAYLOAD_GOAL_BYTES ? 'goal met' : payload <= PAYLOAD_LIMIT_BYTES ? 'within the limit' : 'TOO LARGE'}`,
  );
  check(
    'payload within 80 MB',
    payload <= PAYLOAD_LIMIT_BYTES ? [] : [`${(payload / MB).toFixed(1)} MB`],
  );
} finally {
  if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
  else say(`kept ${work}`);
}

if (failures.length > 0) {
  say(`\npackage:check FAILED: ${failures.length} check(s): ${failures.join('; ')}`);
  process.exit(1);
}
say('\npackage:check passed');
