import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../service/index.js';

export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * The library on disk. Every path is built from ids the studio generated
 * (uuids), never from names or anything the service sent, and every file is
 * written atomically, so a crash leaves the old file or the whole new one.
 *
 *   <library>/<person id>/<avatar id>/photos/<slot>.<ext>
 *   <library>/<person id>/<avatar id>/exports/v<version>-<job id>.glb
 *   <library>/<person id>/<avatar id>/renders/<job id>.<ext>
 *   <library>/<person id>/<avatar id>/metadata.json
 */
export function library(root: () => string) {
  const SAFE_ID = /^[A-Za-z0-9-]{1,100}$/;
  const avatarDir = (personId: string, avatarId: string) => {
    if (!SAFE_ID.test(personId) || !SAFE_ID.test(avatarId)) throw new Error('unsafe library id');
    return path.join(root(), personId, avatarId);
  };
  function write(personId: string, avatarId: string, relative: string, data: Uint8Array | string) {
    const target = path.join(avatarDir(personId, avatarId), relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileAtomic(target, data);
    return target;
  }
  return {
    root,
    avatarDir,
    write,
    read: (file: string) => new Uint8Array(readFileSync(file)),
    removeAvatar: (personId: string, avatarId: string) =>
      rmSync(avatarDir(personId, avatarId), { recursive: true, force: true }),
    removePerson(personId: string) {
      if (!SAFE_ID.test(personId)) throw new Error('unsafe library id');
      rmSync(path.join(root(), personId), { recursive: true, force: true });
    },
  };
}
export type Library = ReturnType<typeof library>;
