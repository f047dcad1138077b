/**
 * What the packaging check asserts about a packed app, as functions of what
 * it reads (the asar listing, binaries, the lockfile), so each rule is
 * tested on its own.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Files the app cannot start or work without, as asar paths. */
export const REQUIRED_ENTRIES = [
  '/package.json',
  '/dist/app/main.cjs',
  '/dist/app/processing/worker.cjs',
  '/dist/app/tasks/task-worker.cjs',
  '/dist/app/tasks/head-texture-worker.cjs',
  '/dist/preload/preload.cjs',
  '/dist/renderer/index.html',
  '/dist/session/index.html',
  '/assets/icon.png',
  // The face models and wasm the service's photo checks load (service/processing/human-loader.ts).
  '/node_modules/@vladmandic/human/dist/human.node-wasm.js',
  '/node_modules/@vladmandic/human/models/blazeface.json',
  '/node_modules/@vladmandic/human/models/blazeface.bin',
  '/node_modules/@vladmandic/human/models/facemesh.json',
  '/node_modules/@vladmandic/human/models/facemesh.bin',
  '/node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm',
  '/node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm',
] as const;

/** Build tools and TypeScript: nothing of them may run in the package. */
const BUILD_TOOLS =
  /^\/node_modules\/(?:tsx|esbuild|@esbuild|typescript|vite|vitest|electron|electron-builder|app-builder-lib|node-gyp|@electron|prebuild-install|node-addon-api|ts-node|rollup|@rollup)(?:\/|$)/;
const TYPESCRIPT_SOURCE = /\.(?:ts|mts|cts|tsx)$/;
const DECLARATION = /\.d\.(?:ts|mts|cts)$/;

/** The package folder an asar path belongs to, such as `@img/sharp-linux-x64` or `libsql`. */
export function packageOf(entry: string): string | null {
  const match = /^\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(entry);
  if (!match?.[1]) return null;
  // Nested node_modules (libsql/node_modules/detect-libc) belong to the inner package.
  const nested = entry.lastIndexOf('/node_modules/');
  if (nested > 0) return packageOf(entry.slice(nested));
  return match[1];
}

export interface AsarFindings {
  missing: string[];
  typescript: string[];
  buildTools: string[];
  /** Packages in node_modules that the lockfile does not list as runtime dependencies. */
  unexpectedPackages: string[];
  /** Files outside node_modules that are none of the bundles, the UI, the assets or package.json. */
  strayFiles: string[];
}

const APP_FILES =
  /^\/(?:package\.json|dist\/app\/.+\.cjs|dist\/preload\/preload\.cjs|dist\/(?:renderer|session)\/.+|assets\/.+)$/;

/**
 * `entries`: the asar listing (files and folders, as `listPackage` gives them);
 * `files`: the set of those that are files; `runtimePackages`: the lockfile's
 * non-dev package names.
 */
export function inspectAsar(
  entries: readonly string[],
  isFile: (entry: string) => boolean,
  runtimePackages: ReadonlySet<string>,
): AsarFindings {
  const listed = new Set(entries);
  const findings: AsarFindings = {
    missing: REQUIRED_ENTRIES.filter((entry) => !listed.has(entry) || !isFile(entry)),
    typescript: [],
    buildTools: [],
    unexpectedPackages: [],
    strayFiles: [],
  };
  const unexpected = new Set<string>();
  for (const entry of entries) {
    if (!isFile(entry)) continue;
    if (TYPESCRIPT_SOURCE.test(entry) || DECLARATION.test(entry)) findings.typescript.push(entry);
    if (BUILD_TOOLS.test(entry)) findings.buildTools.push(entry);
    const pkg = packageOf(entry);
    if (pkg && !runtimePackages.has(pkg)) unexpected.add(pkg);
    if (!pkg && !APP_FILES.test(entry)) findings.strayFiles.push(entry);
  }
  findings.unexpectedPackages = [...unexpected].sort();
  return findings;
}

/** Runtime (non-dev) packages of an npm v3 lockfile, by name. */
export function runtimePackagesOf(lockfile: {
  packages: Record<string, { dev?: boolean }>;
}): Set<string> {
  const names = new Set<string>();
  for (const [key, entry] of Object.entries(lockfile.packages)) {
    if (!key || entry.dev) continue;
    const name = packageOf('/' + key);
    if (name) names.add(name);
  }
  return names;
}

export interface InstallScriptFinding {
  name: string;
  /** Whether package.json `allowScripts` lets it run. */
  allowed: boolean;
}

/**
 * Runtime packages with an install script. A native module that compiles at
 * install would be one; our addons ship prebuilt N-API binaries, so any such
 * script must be denied in `allowScripts` (sharp's only checks for a global
 * libvips, and would build from source if it found one).
 */
export function runtimeInstallScripts(
  lockfile: { packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }> },
  allowScripts: Record<string, boolean>,
): InstallScriptFinding[] {
  const found: InstallScriptFinding[] = [];
  for (const [key, entry] of Object.entries(lockfile.packages)) {
    if (!key || entry.dev || !entry.hasInstallScript) continue;
    const name = packageOf('/' + key) ?? key;
    found.push({ name, allowed: allowScripts[name] !== false });
  }
  return found;
}

/** Runtime packages that depend on a native build chain (so would compile at install). */
export function runtimeBuildChains(lockfile: {
  packages: Record<string, { dev?: boolean; dependencies?: Record<string, string> }>;
}): string[] {
  const chains = ['node-gyp', 'node-gyp-build', 'prebuild-install', 'node-pre-gyp', 'cmake-js'];
  const found: string[] = [];
  for (const [key, entry] of Object.entries(lockfile.packages)) {
    if (!key || entry.dev) continue;
    const deps = Object.keys(entry.dependencies ?? {});
    const uses = deps.filter((dep) =>
      chains.some((chain) => dep === chain || dep.endsWith(`/${chain}`)),
    );
    if (uses.length > 0) found.push(`${key} → ${uses.join(', ')}`);
  }
  return found;
}

/**
 * An addon is N-API when it exports `napi_register_module_v1` and carries no
 * `node_register_module_v<ABI>` (the V8-ABI entry that ties it to one
 * Node or Electron version). Symbol names are in the binary's export string
 * table on every OS, so a byte search reads them without a platform tool.
 */
export function napiProblem(binary: Buffer): string | null {
  const text = binary.toString('latin1');
  const v8Abi = /node_register_module_v\d+/.exec(text);
  if (v8Abi) return `exports ${v8Abi[0]}: built for one Node/Electron ABI, not N-API`;
  if (!text.includes('napi_register_module_v1')) return 'does not export napi_register_module_v1';
  return null;
}

/** Total bytes of the files under a folder (or of one file). */
export function sizeOf(target: string): number {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of readdirSync(target)) total += sizeOf(path.join(target, name));
  return total;
}

/** Every file under a folder whose name matches, as absolute paths. */
export function findFiles(dir: string, match: RegExp): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findFiles(full, match));
    else if (match.test(entry.name)) found.push(full);
  }
  return found;
}

export const MB = 1024 * 1024;
export const PAYLOAD_LIMIT_BYTES = 80 * MB;
export const PAYLOAD_GOAL_BYTES = 60 * MB;
