import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { libraryFolderProblem } from './library-folder.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'library-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;

describe('a library folder the user names', () => {
  it('accepts an existing writable folder and leaves nothing behind', () => {
    const folder = path.join(root, 'ok');
    mkdirSync(folder);
    expect(libraryFolderProblem(folder)).toBeNull();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses a missing folder, a file, a relative path and a NUL byte', () => {
    expect(libraryFolderProblem(path.join(root, 'missing'))).toMatch(/does not exist/);
    const file = path.join(root, 'a-file');
    writeFileSync(file, 'x');
    expect(libraryFolderProblem(file)).toMatch(/not a folder/);
    expect(libraryFolderProblem('relative/library')).toMatch(/absolute/);
    expect(libraryFolderProblem(`${root}/x\0y`)).not.toBeNull();
  });

  // root writes through any permission bits, so this case needs an ordinary user.
  it.skipIf(isRoot)('refuses a folder it cannot write to', () => {
    const folder = path.join(root, 'read-only');
    mkdirSync(folder);
    chmodSync(folder, 0o500);
    try {
      expect(libraryFolderProblem(folder)).toMatch(/cannot write/);
    } finally {
      chmodSync(folder, 0o700);
    }
  });
});
