import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger, startService, type RunningService } from '../../../service/index.js';
import { apiClient } from './api-client.js';

const MB = 1024 * 1024;
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
  for (const name of ['a', 'b', 'c']) {
    const data = Buffer.alloc(20 * MB);
    for (let i = 0; i < data.length; i += 4096) data[i] = (i * 31) & 0xff;
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
  const { upload_url } = await client.createAvatar(user.id);
  await client.close();
  // In a child process, so that only the uploader's memory is measured.
  const script = `
    import { uploadPhotos } from ${JSON.stringify(path.join(import.meta.dirname, 'upload.ts'))};
    import { request } from 'undici';
    // Warm up the modules and undici's HTTP stack before the baseline.
    await (await request(${JSON.stringify(service.baseUrl + '/openapi.json')})).body.arrayBuffer();
    globalThis.gc?.();
    const base = process.memoryUsage.rss();
    let peak = base;
    const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 5);
    let progressCalls = 0;
    const answer = await uploadPhotos({
      uploadUrl: ${JSON.stringify(upload_url)},
      photos: [
        { field: 'image-frontal', path: ${JSON.stringify(path.join(dir, 'a.jpg'))} },
        { field: 'image-side-1', path: ${JSON.stringify(path.join(dir, 'b.jpg'))} },
        { field: 'image-side-2', path: ${JSON.stringify(path.join(dir, 'c.jpg'))} },
      ],
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
}, 120_000);
