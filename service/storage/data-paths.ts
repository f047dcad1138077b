import path from 'node:path';

const GENERATED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Every path under the data directory is built here, and only from ids the
 * service generated itself. Nothing a client sends ever becomes part of a
 * path; the check below makes a mistake fail loudly instead of escaping.
 */
export function avatarDir(avatarId: string): string {
  if (!GENERATED_ID.test(avatarId))
    throw new Error('refusing a path for a non-generated avatar id');
  return path.join('avatars', avatarId);
}

export const TMP_DIR = 'tmp';

export function resolveInDataDir(dataDir: string, relative: string): string {
  const root = path.resolve(dataDir);
  const full = path.resolve(root, relative);
  if (full !== root && !full.startsWith(root + path.sep)) {
    throw new Error('refusing a path outside the data directory');
  }
  return full;
}
