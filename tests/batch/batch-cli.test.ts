/**
 * `npm run batch` end to end against the real embedded service: a folder with
 * naming variants, a person.json, a person whose photos fail and incomplete
 * ones; a kill -9 in the middle, a resume with 0 duplicates on the service,
 * a run that creates nothing, and --retry-failed.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSqlite } from '../../service/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PHOTOS = path.join(ROOT, 'e2e/fixtures/photos');

const Summary = z
  .object({
    event: z.literal('summary'),
    people: z.number(),
    succeeded: z.number(),
    failed: z.number(),
    invalid: z.number(),
    out: z.string(),
    report: z.string(),
    duration_s: z.number(),
  })
  .strict();
const ProgressLine = z.object({
  event: z.string(),
  person: z.string().optional(),
  state: z.string().optional(),
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string[];
  progress: z.infer<typeof ProgressLine>[];
  stderr: string;
}

let work: string;
let input: string;
let out: string;
let dataDir: string;

function person(name: string, files: Record<string, string>, json?: unknown) {
  const dir = path.join(input, name);
  mkdirSync(dir, { recursive: true });
  for (const [target, source] of Object.entries(files))
    copyFileSync(path.join(PHOTOS, source), path.join(dir, target));
  if (json !== undefined)
    writeFileSync(
      path.join(dir, 'person.json'),
      typeof json === 'string' ? json : JSON.stringify(json),
    );
}

/** Runs the CLI's node process itself, so that kill -9 hits the process that does the work. */
function runBatch(
  args: string[],
  killWhen?: (line: z.infer<typeof ProgressLine>) => boolean,
): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/batch.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, AVATAR_API_TOKEN: '', npm_lifecycle_event: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: Run = { code: null, signal: null, stdout: [], progress: [], stderr: '' };
  createInterface({ input: child.stdout! }).on('line', (line) => run.stdout.push(line));
  createInterface({ input: child.stderr! }).on('line', (line) => {
    run.stderr += line + '\n';
    let parsed;
    try {
      parsed = ProgressLine.safeParse(JSON.parse(line));
    } catch {
      return;
    }
    if (!parsed.success || 'level' in (JSON.parse(line) as object)) return;
    run.progress.push(parsed.data);
    if (killWhen?.(parsed.data) && child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ ...run, code, signal })),
  );
}

const command = (...extra: string[]) => [
  input,
  '--out',
  out,
  '--data-dir',
  dataDir,
  '--body-type',
  'male',
  '--concurrency',
  '2',
  '--export',
  '--render',
  'common/preview:png',
  ...extra,
];

/** The service's own counts, read from its database. */
function serviceCounts() {
  const db = openSqlite(path.join(dataDir, 'service', 'service.sqlite'), { migrations: [] });
  try {
    const count = (sql: string) => (db.prepare(sql).pluck().get() as number) ?? 0;
    return {
      users: count('SELECT COUNT(*) FROM users'),
      avatars: count('SELECT COUNT(*) FROM avatars'),
      perUser: db.prepare('SELECT user_id, COUNT(*) AS n FROM avatars GROUP BY user_id').all() as {
        user_id: string;
        n: number;
      }[],
    };
  } finally {
    db.close();
  }
}

const summaryOf = (run: Run) => {
  expect(run.stdout, run.stderr.slice(-3000)).toHaveLength(1);
  return Summary.parse(JSON.parse(run.stdout[0]!));
};
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'batch-cli-'));
  input = path.join(work, 'people');
  out = path.join(work, 'out');
  dataDir = path.join(work, 'data');
  person('alice', {
    'frontal.jpg': 'person-a/frontal.jpg',
    'side-1.jpg': 'person-a/side-1.jpg',
    'side-2.jpg': 'person-a/side-2.jpg',
  });
  person(
    'Bob',
    {
      'FRONTAL.JPG': 'person-b/frontal.jpg',
      'side1.jpeg': 'person-b/side-1.jpg',
      'Side_2.jpg': 'person-b/side-2.jpg',
    },
    { name: 'Bob Builder', body_type: 'female' },
  );
  person('carol', {
    'frontal.jpg': 'bad/no-face.jpg',
    'side_1.jpg': 'person-c/side-1.jpg',
    'side_2.jpg': 'person-c/side-2.jpg',
  });
  person('dave', { 'frontal.jpg': 'person-c/frontal.jpg', 'side-1.jpg': 'person-c/side-1.jpg' });
  person('erin', {
    'frontal.jpg': 'bad/not-an-image.jpg',
    'side-1.jpg': 'person-c/side-1.jpg',
    'side-2.jpg': 'person-c/side-2.jpg',
  });
  person(
    'frank',
    {
      'frontal.jpg': 'person-c/frontal.jpg',
      'side-1.jpg': 'person-c/side-1.jpg',
      'side-2.jpg': 'person-c/side-2.jpg',
    },
    '{"body_type": "robot"}',
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run batch', () => {
  it('refuses a missing input with exit code 2 and nothing on stdout', async () => {
    const run = await runBatch([path.join(work, 'nope'), '--out', out, '--data-dir', dataDir]);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toMatch(/does not exist/);
  });

  it('refuses a bad --render with exit code 2', async () => {
    const run = await runBatch([input, '--out', out, '--render', 'common/preview']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/SCENE:FORMAT/);
  });

  it(
    'survives kill -9 at the riskiest moments and resumes with 0 duplicates',
    { timeout: 300_000 },
    async () => {
      // Killed right after an avatar's creation was recorded as intended: the request may be in flight.
      const first = await runBatch(
        command(),
        (l) => l.event === 'person' && l.state === 'creating_avatar',
      );
      expect(first.signal).toBe('SIGKILL');
      // Killed again while the service processes the photos.
      const second = await runBatch(
        command(),
        (l) => l.event === 'person' && l.state === 'processing',
      );
      expect(second.signal).toBe('SIGKILL');

      const third = await runBatch(command());
      expect(third.code, third.stderr.slice(-3000)).toBe(3);
      const summary = summaryOf(third);
      expect(summary).toMatchObject({ people: 6, succeeded: 2, failed: 1, invalid: 3, out });
      expect(summary.report).toBe(path.join(out, 'report.csv'));

      // Exactly one user and one avatar per person sent (alice, Bob, carol).
      const counts = serviceCounts();
      expect(counts.users).toBe(3);
      expect(counts.avatars).toBe(3);
      expect(counts.perUser.every((u) => u.n === 1)).toBe(true);

      for (const name of ['alice', 'Bob']) {
        const glb = readFileSync(path.join(out, name, 'avatar.glb'));
        expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF');
        const png = readFileSync(path.join(out, name, 'render-common_preview.png'));
        expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
        const result = z
          .object({
            person: z.string(),
            name: z.string(),
            body_type: z.string(),
            user_id: z.string(),
            avatar_id: z.string(),
            status: z.literal('succeeded'),
            files: z.array(z.object({ file: z.string(), sha256: z.string() })),
            timings: z.record(z.string(), z.string()),
          })
          .parse(JSON.parse(readFileSync(path.join(out, name, 'result.json'), 'utf8')));
        expect(result.files).toHaveLength(2);
        for (const f of result.files) expect(sha(path.join(out, name, f.file))).toBe(f.sha256);
      }
      const bob = JSON.parse(readFileSync(path.join(out, 'Bob', 'result.json'), 'utf8')) as {
        name: string;
        body_type: string;
      };
      expect(bob).toMatchObject({ name: 'Bob Builder', body_type: 'female' });

      const report = readFileSync(summary.report, 'utf8').trim().split(/\r?\n/);
      expect(report[0]).toBe('person,name,status,reason,body_type,user_id,avatar_id,files,result');
      expect(report).toHaveLength(7);
      const row = (name: string) => report.find((r) => r.startsWith(`${name},`)) ?? '';
      expect(row('carol')).toMatch(/,failed,.*face/i);
      expect(row('dave')).toMatch(/,invalid,Missing photo: side-2\./);
      expect(row('erin')).toMatch(/,invalid,.*not a JPEG, PNG or WebP/);
      expect(row('frank')).toMatch(/,invalid,.*person\.json: body_type/);
    },
  );

  it(
    'creates nothing when the same command runs again, and keeps the files',
    { timeout: 120_000 },
    async () => {
      const before = serviceCounts();
      const glb = sha(path.join(out, 'alice', 'avatar.glb'));
      const run = await runBatch(command());
      expect(run.code).toBe(3);
      expect(summaryOf(run)).toMatchObject({ people: 6, succeeded: 2, failed: 1, invalid: 3 });
      expect(serviceCounts()).toEqual(before);
      expect(sha(path.join(out, 'alice', 'avatar.glb'))).toBe(glb);
    },
  );

  it(
    '--retry-failed sends failed people again as new avatars of the same users',
    { timeout: 180_000 },
    async () => {
      const before = serviceCounts();
      const carolBefore = JSON.parse(
        readFileSync(path.join(out, 'carol', 'result.json'), 'utf8'),
      ) as {
        user_id: string;
        avatar_id: string;
      };
      const run = await runBatch(command('--retry-failed'));
      expect(run.code).toBe(3);
      expect(summaryOf(run)).toMatchObject({ succeeded: 2, failed: 1, invalid: 3 });
      const after = serviceCounts();
      expect(after.users).toBe(before.users);
      expect(after.avatars).toBe(before.avatars + 1);
      const carol = JSON.parse(readFileSync(path.join(out, 'carol', 'result.json'), 'utf8')) as {
        user_id: string;
        avatar_id: string;
        attempt: number;
      };
      expect(carol.user_id).toBe(carolBefore.user_id);
      expect(carol.avatar_id).not.toBe(carolBefore.avatar_id);
      expect(carol.attempt).toBe(2);
    },
  );

  it('exits 0 when every person succeeds', { timeout: 120_000 }, async () => {
    const solo = path.join(work, 'solo');
    mkdirSync(path.join(solo, 'zoe'), { recursive: true });
    for (const f of ['frontal.jpg', 'side-1.jpg', 'side-2.jpg'])
      copyFileSync(path.join(PHOTOS, 'person-a', f), path.join(solo, 'zoe', f));
    const run = await runBatch([
      solo,
      '--out',
      path.join(work, 'solo-out'),
      '--data-dir',
      dataDir,
      '--body-type',
      'female',
    ]);
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(summaryOf(run)).toMatchObject({ people: 1, succeeded: 1, failed: 0, invalid: 0 });
  });
});
