import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBatchArguments, UsageError } from './batch-arguments.js';

const env = { AVATAR_STUDIO_DATA_DIR: '/tmp/studio-data' };

describe('parseBatchArguments', () => {
  it('reads every option of the issue', () => {
    const args = parseBatchArguments(
      [
        'people',
        '--out',
        'out',
        '--body-type',
        'female',
        '--concurrency',
        '4',
        '--export',
        '--render',
        'common/preview:png',
        '--render',
        'common/fullbody:JPG',
        '--api',
        'https://api.example.com',
        '--data-dir',
        'data',
        '--dry-run',
        '--retry-failed',
      ],
      env,
    );
    expect(args).toEqual({
      input: path.resolve('people'),
      out: path.resolve('out'),
      bodyType: 'female',
      concurrency: 4,
      export: true,
      renders: [
        { scene: 'common/preview', format: 'png' },
        { scene: 'common/fullbody', format: 'jpg' },
      ],
      api: { mode: 'hosted', baseUrl: 'https://api.example.com' },
      dataDir: path.resolve('data'),
      dryRun: true,
      retryFailed: true,
    });
  });

  it('defaults: embedded API, concurrency 3, the studio data directory', () => {
    const args = parseBatchArguments(['people', '--out', 'out'], env);
    expect(args).toMatchObject({
      api: { mode: 'embedded' },
      concurrency: 3,
      bodyType: null,
      export: false,
      renders: [],
      dataDir: '/tmp/studio-data',
    });
  });

  it.each([
    [['--out', 'o'], /input/],
    [['people'], /--out/],
    [['a', 'b', '--out', 'o'], /One input only/],
    [['p', '--out', 'o', '--body-type', 'robot'], /bodyType/],
    [['p', '--out', 'o', '--concurrency', '0'], /concurrency/],
    [['p', '--out', 'o', '--concurrency', 'many'], /concurrency/],
    [['p', '--out', 'o', '--render', 'preview'], /SCENE:FORMAT/],
    [['p', '--out', 'o', '--render', 'preview:gif'], /gif/],
    [['p', '--out', 'o', '--api', 'ftp://x'], /embedded or an http/],
    [['p', '--out', 'o', '--colour', 'red'], /colour/],
  ])('refuses %j as a usage error', (argv, message) => {
    expect(() => parseBatchArguments(argv, env)).toThrow(UsageError);
    expect(() => parseBatchArguments(argv, env)).toThrow(message);
  });
});
