import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * Writes a file so that readers see either the old content or the whole new
 * one, never a torn write: a temp file beside it, fsync, then rename.
 */
export function writeFileAtomic(target: string, data: Uint8Array | string): void {
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
  fsyncDir(path.dirname(target));
}

/** Makes a rename durable: the directory entry itself must reach the disk. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
