import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../service/index.js';
import type { BatchFile, RenderSpec } from '../../../shared/studio/index.js';
import { sha256 } from '../library.js';
import type { BatchPersonRecord } from './batch-records.js';
import { personKeyProblem } from './scan-input.js';

/** `<out>/<person>`; the key was checked to be one plain segment when it was scanned. */
export function personDir(outDir: string, person: string): string {
  if (personKeyProblem(person)) throw new Error(`unsafe person key ${JSON.stringify(person)}`);
  return path.join(outDir, person);
}

/** A scene id becomes part of a file name: only safe characters survive. */
export const renderFileName = (spec: RenderSpec) =>
  `render-${spec.scene.replace(/[^A-Za-z0-9_-]/g, '_')}.${spec.format}`;

/** Copies a library file into the person's output folder, atomically, and hashes what was written. */
export function copyOut(
  libraryFile: string,
  target: string,
  kind: BatchFile['kind'],
  spec: RenderSpec | null,
): BatchFile {
  const bytes = new Uint8Array(readFileSync(libraryFile));
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileAtomic(target, bytes);
  return {
    kind,
    path: target,
    sha256: sha256(bytes),
    bytes: bytes.byteLength,
    scene: spec?.scene ?? null,
    format: spec?.format ?? null,
  };
}

export type ReportStatus = 'succeeded' | 'failed' | 'invalid' | 'unfinished';
export function reportStatus(p: BatchPersonRecord): ReportStatus {
  if (p.state === 'done') return 'succeeded';
  if (p.state === 'failed') return 'failed';
  if (p.state === 'invalid') return 'invalid';
  return 'unfinished';
}

/** `<out>/<person>/result.json`: everything known about one person, files with their hashes. */
export function writeResult(outDir: string, p: BatchPersonRecord): string {
  const dir = personDir(outDir, p.person);
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, 'result.json');
  const result = {
    person: p.person,
    name: p.name,
    body_type: p.bodyType,
    user_id: p.userId,
    avatar_id: p.avatarId,
    status: reportStatus(p),
    reason: p.reason,
    attempt: p.attempt,
    files: p.files.map((f) => ({
      kind: f.kind,
      file: path.relative(dir, f.path),
      sha256: f.sha256,
      bytes: f.bytes,
      scene: f.scene,
      format: f.format,
    })),
    timings: p.timings,
  };
  writeFileAtomic(target, JSON.stringify(result, null, 2) + '\n');
  return target;
}

/** RFC 4180 quoting, and a leading quote on text a spreadsheet would run as a formula. */
export function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const REPORT_COLUMNS = [
  'person',
  'name',
  'status',
  'reason',
  'body_type',
  'user_id',
  'avatar_id',
  'files',
  'result',
] as const;

/** `report.csv`: a header, then one row per person, invalid ones included, with the reason. */
export function writeReport(target: string, outDir: string, people: BatchPersonRecord[]): string {
  const rows = people.map((p) =>
    [
      p.person,
      p.name,
      reportStatus(p),
      p.reason,
      p.bodyType,
      p.userId,
      p.avatarId,
      p.files.map((f) => path.relative(outDir, f.path)).join(' '),
      personKeyProblem(p.person) ? null : path.join(p.person, 'result.json'),
    ]
      .map(csvField)
      .join(','),
  );
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileAtomic(target, [REPORT_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n');
  return target;
}
