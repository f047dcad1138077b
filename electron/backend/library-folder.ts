/**
 * A library folder typed by the user (web mode) or picked in the OS dialog
 * (Electron) is used only when it is an existing folder the studio can
 * write: a typo must not scatter the library into a new folder somewhere,
 * and a read-only folder must fail now, not at the first export.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function libraryFolderProblem(folder: string): string | null {
  if (!path.isAbsolute(folder)) return 'The library folder must be an absolute path.';
  if (folder.includes('\0')) return 'The library folder path is not valid.';
  const stat = statSync(folder, { throwIfNoEntry: false });
  if (!stat) return `The folder ${folder} does not exist.`;
  if (!stat.isDirectory()) return `${folder} is not a folder.`;
  // A real write, since permission bits and ACLs (Windows, network drives) can disagree.
  const probe = path.join(folder, `.avatar-studio-write-test-${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(probe, '', { flag: 'wx' });
  } catch {
    return `The studio cannot write to ${folder}.`;
  } finally {
    rmSync(probe, { force: true });
  }
  return null;
}
