import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { openSqlite } from '../service/index.js';
import type { Suite } from './suite.js';

const PEOPLE = 50;
const CONCURRENCY = 3;
const RENDER = 'common/preview:png';
const TARGET_RATIO = 1.25;
const ROOT = path.resolve(import.meta.dirname, '..');
const PHOTOS = path.join(ROOT, 'e2e/fixtures/photos');
const SETS = ['person-a', 'person-b', 'person-c'];

const Summary = z.object({
  event: z.literal('summary'),
  people: z.number(),
  succeeded: z.number(),
});

/** Runs `npm run batch`'s process and answers its summary and wall time. */
async function runCli(args: string[]) {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/batch.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, AVATAR_API_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`npm run batch exited with ${code}: ${stdout}`);
  return { wallMs, summary: Summary.parse(JSON.parse(stdout.trim())) };
}

/**
 * The service's own time for the same work, from its records: from the first
 * user it created to the last export or render it finished (its span at this
 * concurrency), and the busy time it spent processing, exporting and rendering.
 */
function serviceTimes(dataDir: string) {
  const db = openSqlite(path.join(dataDir, 'service', 'service.sqlite'), { migrations: [] });
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get() as number;
    const start = one('SELECT MIN(created_at) FROM users');
    const end = Math.max(
      one('SELECT MAX(completed_at) FROM exports'),
      one('SELECT MAX(completed_at) FROM renders'),
    );
    const busy =
      one('SELECT SUM(processed_at - uploaded_at) FROM avatars') +
      one('SELECT SUM(completed_at - created_at) FROM exports') +
      one('SELECT SUM(completed_at - created_at) FROM renders');
    return { spanMs: end - start, busyMs: busy };
  } finally {
    db.close();
  }
}

/** The batch suite: 50 people through the embedded service with --export and one render. */
export const batchSuite: Suite = async (ctx) => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-batch-'));
  ctx.defer(() => rmSync(work, { recursive: true, force: true }));
  const input = path.join(work, 'people');
  for (let i = 0; i < PEOPLE; i++) {
    const dir = path.join(input, `person-${String(i + 1).padStart(2, '0')}`);
    mkdirSync(dir, { recursive: true });
    for (const f of ['frontal.jpg', 'side-1.jpg', 'side-2.jpg'])
      copyFileSync(path.join(PHOTOS, SETS[i % SETS.length]!, f), path.join(dir, f));
  }
  const dataDir = path.join(work, 'data');
  const { wallMs, summary } = await runCli([
    input,
    '--out',
    path.join(work, 'out'),
    '--data-dir',
    dataDir,
    '--body-type',
    'male',
    '--concurrency',
    String(CONCURRENCY),
    '--export',
    '--render',
    RENDER,
  ]);
  if (summary.succeeded !== PEOPLE)
    throw new Error(`only ${summary.succeeded} of ${PEOPLE} people succeeded`);
  const service = serviceTimes(dataDir);
  const ratio = wallMs / service.spanMs;
  const figures = {
    suite: 'batch',
    people: PEOPLE,
    concurrency: CONCURRENCY,
    render: RENDER,
    wall_s: +(wallMs / 1000).toFixed(1),
    people_per_minute: +(PEOPLE / (wallMs / 60_000)).toFixed(1),
    service_span_s: +(service.spanMs / 1000).toFixed(1),
    service_busy_s: +(service.busyMs / 1000).toFixed(1),
    wall_vs_service: +ratio.toFixed(2),
    target: `≤ ${TARGET_RATIO}×`,
    met: ratio <= TARGET_RATIO,
    load_note: 'measured on a machine shared with other work',
  };
  process.stdout.write(
    `batch: ${figures.people} people, concurrency ${CONCURRENCY}, --export and ${RENDER}\n` +
      `  wall ${figures.wall_s} s (CLI start to exit), ${figures.people_per_minute} people/min\n` +
      `  service's own time ${figures.service_span_s} s (first user to last file), busy ${figures.service_busy_s} s\n` +
      `  wall / service = ${figures.wall_vs_service}× (target ${figures.target}: ${figures.met ? 'met' : 'NOT met'})\n` +
      JSON.stringify(figures) +
      '\n',
  );
};
