import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'avatar-session-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The project line `project set` prints (npm's own lines come first). */
const projectLine = (stdout: string) =>
  JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;

describe('project set: session page settings', () => {
  it('sets the export delivery and the frame origins, and back to any origin', () => {
    const set = runCli([
      'project',
      'set',
      '--data-dir',
      dataDir,
      '--export-delivery',
      'dataURL',
      '--frame-origin',
      'https://app.example',
      '--frame-origin',
      'http://127.0.0.1:5173',
    ]);
    expect(set.status, set.stderr).toBe(0);
    expect(projectLine(set.stdout)).toMatchObject({
      export_delivery: 'dataURL',
      frame_origins: ['https://app.example', 'http://127.0.0.1:5173'],
    });
    const reset = runCli(['project', 'set', '--data-dir', dataDir, '--any-frame-origin']);
    expect(projectLine(reset.stdout)).toMatchObject({
      export_delivery: 'dataURL',
      frame_origins: ['*'],
    });
  });

  it.each([
    [['--export-delivery', 'ftp'], '--export-delivery'],
    [['--frame-origin', 'https://app.example/path'], '--frame-origin'],
    [['--frame-origin', 'app.example'], '--frame-origin'],
  ])('refuses %j', (args, flag) => {
    const r = runCli(['project', 'set', '--data-dir', dataDir, ...args]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(flag);
  });
});
