import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_DIR } from './paths.js';

/** The embedded service's token, read from a studio's data directory through the service CLI. */
export function embeddedServiceToken(studioDataDir: string): string {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'service/cli.ts',
      'project',
      'list',
      '--data-dir',
      path.join(studioDataDir, 'service'),
    ],
    { cwd: REPO_DIR, encoding: 'utf8' },
  );
  const projects = out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { token: string; is_default: boolean });
  const token = projects.find((p) => p.is_default)?.token;
  if (!token) throw new Error('The embedded service has no default project.');
  return token;
}
