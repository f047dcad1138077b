import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger, startService, type RunningService } from '../../../service/index.js';
import { apiClient } from './api-client.js';

const MB = 1024 * 1024;
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
let dir: string;
let service: RunningService;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'studio-upload-memory-'));
  service = await startService({
    dataDir: path.join(dir, 'service'),
    port: 0,
    log: createLogger('error'),
  });
  // JPEG magic, then 20 MB of noise: accepted by the upload, judged later by processing.
  // Random bytes, so that a chunk sent from a reused buffer too early would show in the hash.
  for (const [name, size] of [
    ['a', 20 * MB],
    ['b', 20 * MB],
    ['c', 20 * MB],
    ['s1', 2 * MB],
    ['s2', 2 * MB],
    ['s3', 2 * MB],
  ] as const) {
    const data = randomBytes(size);
    data.set([0xff, 0xd8, 0xff, 0xe0], 0);
    writeFileSync(path.join(dir, `${name}.jpg`), data);
  }
}, 60_000);
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

it('streams a 3 × 20 MB upload with flat memory: RSS grows by less than 30 MB', async () => {
  const client = apiClient({ baseUrl: service.baseUrl, token: () => service.defaultProject.token });
  const user = await client.createUser();
  const warmUp = await client.createAvatar(user.id);
  const { avatar_id, upload_url } = await client.createAvatar(user.id);
  await client.close();
  const photos = (names: readonly string[]) =>
    JSON.stringify(
      (['image-frontal', 'image-side-1', 'image-side-2'] as const).map((field, i) => ({
        field,
        path: path.join(dir, `${names[i]}.jpg`),
      })),
    );
  // In a child process, so that only the uploader's memory is measured.
  const script = `
    import { uploadPhotos } from ${JSON.stringify(path.join(import.meta.dirname, 'upload.ts'))};
    // Warm up with one small upload first: loading the modules and compiling the send loop is
    // paid once per process, whatever the photo size; what is measured is what the bytes cost.
    await uploadPhotos({ uploadUrl: ${JSON.stringify(warmUp.upload_url)}, photos: ${photos(['s1', 's2', 's3'])}, bodyType: 'male', telephoto: false });
    globalThis.gc?.();
    const base = process.memoryUsage.rss();
    let peak = base;
    const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 5);
    let progressCalls = 0;
    const answer = await uploadPhotos({
      uploadUrl: ${JSON.stringify(upload_url)},
      photos: ${photos(['a', 'b', 'c'])},
      bodyType: 'male',
      telephoto: false,
      onProgress: () => { progressCalls++; },
    });
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage.rss());
    console.log(JSON.stringify({ status: answer.status, deltaMb: (peak - base) / ${MB}, progressCalls }));
  `;
  // Asynchronously: the service answering the upload runs in this process.
  const { stdout: out } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', maxBuffer: 1024 * 1024 },
  );
  const result = JSON.parse(out.trim().split('\n').at(-1)!) as {
    status: string;
    deltaMb: number;
    progressCalls: number;
  };
  process.stderr.write(`upload of 3 × 20 MB: RSS grew by ${result.deltaMb.toFixed(1)} MB\n`);
  expect(result.status).toBe('processing');
  expect(result.progressCalls).toBeGreaterThan(100);
  expect(result.deltaMb).toBeLessThan(30);
  // The service holds exactly the bytes on disk: the reused read buffers corrupted nothing.
  const stored = path.join(dir, 'service', 'avatars', avatar_id, 'photos');
  for (const [name, field] of [
    ['a', 'image-frontal'],
    ['b', 'image-side-1'],
    ['c', 'image-side-2'],
  ] as const)
    expect(sha256(path.join(stored, `${field}.jpg`)), field).toBe(
      sha256(path.join(dir, `${name}.jpg`)),
    );
}, 120_000);
