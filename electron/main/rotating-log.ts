/**
 * The studio's log file under the OS logs folder, rotated by size:
 * `main.log`, then `main.log.1` … `main.log.<keep>`; the oldest is dropped.
 * Lines are appended synchronously, so the last lines before a crash are on
 * disk. Lines come from the structured logger, which redacts secrets.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export interface RotatingLogOptions {
  dir: string;
  name?: string;
  /** Size at which the current file is rotated. */
  maxBytes?: number;
  /** Rotated files kept besides the current one. */
  keep?: number;
}

export interface RotatingLog {
  readonly file: string;
  write(line: string): void;
}

export function rotatingLog(options: RotatingLogOptions): RotatingLog {
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const keep = Math.max(1, options.keep ?? 4);
  const file = path.join(options.dir, options.name ?? 'main.log');
  mkdirSync(options.dir, { recursive: true });
  let size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;

  function rotate(): void {
    rmSync(`${file}.${keep}`, { force: true });
    for (let n = keep - 1; n >= 1; n--)
      if (existsSync(`${file}.${n}`)) renameSync(`${file}.${n}`, `${file}.${n + 1}`);
    if (existsSync(file)) renameSync(file, `${file}.1`);
    size = 0;
  }

  return {
    file,
    write(line) {
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) rotate();
      try {
        appendFileSync(file, line, { mode: 0o600 });
        size += bytes;
      } catch {
        // A full or vanished disk must not take the app down; stderr still has the line.
      }
    },
  };
}
