import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import { AvatarCustomization, BodyType } from '../../../shared/api/index.js';

export type Slot = 'frontal' | 'side1' | 'side2';
export const SLOTS: readonly Slot[] = ['frontal', 'side1', 'side2'];

/** One person as found in the input, before any file is opened. */
export interface ScannedPerson {
  person: string;
  name: string;
  bodyType: BodyType | null;
  telephoto: boolean;
  customization: AvatarCustomization | null;
  /** Absolute paths. */
  photos: Partial<Record<Slot, string>>;
  /** Set when the input itself is wrong for this person (bad person.json, two frontals…). */
  problem: string | null;
}

export interface ScannedInput {
  /** Absolute path of the folder or manifest. */
  input: string;
  kind: 'folder' | 'manifest';
  people: ScannedPerson[];
}

/** The input cannot be read at all: a usage error, not a person's problem. */
export class InputError extends Error {
  override name = 'InputError';
}

const PHOTO_NAME = /^(frontal|side[-_]?1|side[-_]?2)\.(jpe?g|png|webp)$/i;
const slotOf = (stem: string): Slot =>
  stem.toLowerCase() === 'frontal' ? 'frontal' : stem.endsWith('1') ? 'side1' : 'side2';

/**
 * A person's key names their output folder, so it must be one plain path
 * segment: no separators, no `.`/`..`, no control characters.
 */
export function personKeyProblem(key: string): string | null {
  if (key.length === 0 || key.length > 100) return 'The person key must be 1 to 100 characters.';
  if (key === '.' || key === '..' || /[/\\]/.test(key) || /\p{Cc}/u.test(key))
    return `The person key ${JSON.stringify(key)} is not a plain folder name.`;
  return null;
}

export const PersonJson = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    body_type: BodyType.optional(),
    telephoto: z.boolean().optional(),
    customization: AvatarCustomization.optional(),
  })
  .strict();

const issuesText = (error: z.ZodError) =>
  error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');

function readPersonJson(file: string): Pick<ScannedPerson, 'problem'> & {
  data: z.infer<typeof PersonJson>;
} {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return {
      data: {},
      problem: `person.json is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
  const parsed = PersonJson.safeParse(json);
  if (!parsed.success) return { data: {}, problem: `person.json: ${issuesText(parsed.error)}.` };
  return { data: parsed.data, problem: null };
}

function scanPersonFolder(dir: string, key: string): ScannedPerson {
  const photos: Partial<Record<Slot, string>> = {};
  const problems: string[] = [];
  let personJson: string | null = null;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.toLowerCase() === 'person.json') {
      personJson = path.join(dir, entry.name);
      continue;
    }
    const match = PHOTO_NAME.exec(entry.name);
    if (!match) continue;
    const slot = slotOf(match[1]!);
    if (photos[slot])
      problems.push(`Two ${slot} photos: ${path.basename(photos[slot])} and ${entry.name}.`);
    photos[slot] = path.join(dir, entry.name);
  }
  const meta = personJson ? readPersonJson(personJson) : { data: {}, problem: null };
  if (meta.problem) problems.push(meta.problem);
  return {
    person: key,
    name: meta.data.name ?? key,
    bodyType: meta.data.body_type ?? null,
    telephoto: meta.data.telephoto ?? false,
    customization: meta.data.customization ?? null,
    photos,
    problem: problems.length ? problems.join(' ') : (personKeyProblem(key) ?? null),
  };
}

function scanFolder(dir: string): ScannedInput {
  const people = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => scanPersonFolder(path.join(dir, name), name));
  return { input: dir, kind: 'folder', people };
}

const ManifestRow = z.object({
  person: z.string().trim(),
  frontal: z.string().trim().default(''),
  side_1: z.string().trim().default(''),
  side_2: z.string().trim().default(''),
  body_type: z.string().trim().default(''),
  telephoto: z.string().trim().default(''),
  name: z.string().trim().default(''),
});
const REQUIRED_COLUMNS = ['person', 'frontal', 'side_1', 'side_2'];

/**
 * A manifest path is relative to the CSV and must stay inside the CSV's
 * folder: a manifest from someone else must not make the batch upload
 * arbitrary files of this machine.
 */
export function manifestPhotoPath(csvDir: string, value: string): string | { problem: string } {
  if (path.isAbsolute(value) || path.win32.isAbsolute(value))
    return { problem: `${JSON.stringify(value)} is absolute; paths must be relative to the CSV.` };
  const resolved = path.resolve(csvDir, value);
  const relative = path.relative(csvDir, resolved);
  if (relative.startsWith('..') || path.isAbsolute(relative))
    return { problem: `${JSON.stringify(value)} leaves the CSV's folder.` };
  return resolved;
}

function scanManifest(file: string): ScannedInput {
  let records: Record<string, string>[];
  try {
    records = parseCsv(readFileSync(file, 'utf8'), {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      bom: true,
    });
  } catch (error) {
    throw new InputError(
      `The manifest ${file} is not valid CSV: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const header = records[0] ? Object.keys(records[0]) : [];
  const missing = REQUIRED_COLUMNS.filter((c) => records.length > 0 && !header.includes(c));
  if (missing.length) throw new InputError(`The manifest has no column ${missing.join(', ')}.`);
  const csvDir = path.dirname(file);
  const seen = new Set<string>();
  const people = records.map((record, index): ScannedPerson => {
    const row = ManifestRow.parse(record);
    const problems: string[] = [];
    const key = row.person || `row-${index + 2}`;
    const keyProblem = personKeyProblem(row.person);
    if (keyProblem) problems.push(`Row ${index + 2}: ${keyProblem}`);
    if (seen.has(key)) problems.push(`Row ${index + 2}: the person ${key} is listed twice.`);
    seen.add(key);
    const photos: Partial<Record<Slot, string>> = {};
    for (const [slot, value] of [
      ['frontal', row.frontal],
      ['side1', row.side_1],
      ['side2', row.side_2],
    ] as const) {
      if (!value) continue;
      const resolved = manifestPhotoPath(csvDir, value);
      if (typeof resolved === 'string') photos[slot] = resolved;
      else problems.push(`The ${slot} photo ${resolved.problem}`);
    }
    const bodyType = BodyType.safeParse(row.body_type.toLowerCase());
    if (row.body_type && !bodyType.success)
      problems.push(`body_type must be male or female, not ${JSON.stringify(row.body_type)}.`);
    const telephoto = row.telephoto.toLowerCase();
    if (telephoto && !['true', 'false', '1', '0', 'yes', 'no'].includes(telephoto))
      problems.push(`telephoto must be true or false, not ${JSON.stringify(row.telephoto)}.`);
    return {
      person: key,
      name: row.name || key,
      bodyType: bodyType.success ? bodyType.data : null,
      telephoto: ['true', '1', 'yes'].includes(telephoto),
      customization: null,
      photos,
      problem: problems.length ? problems.join(' ') : null,
    };
  });
  return { input: file, kind: 'manifest', people };
}

/** Reads a folder of people or a CSV manifest; throws InputError when there is nothing to read. */
export function scanInput(input: string): ScannedInput {
  const absolute = path.resolve(input);
  let stats;
  try {
    stats = statSync(absolute);
  } catch {
    throw new InputError(`The input ${absolute} does not exist.`);
  }
  if (stats.isDirectory()) return scanFolder(absolute);
  if (stats.isFile() && absolute.toLowerCase().endsWith('.csv')) return scanManifest(absolute);
  throw new InputError(`The input ${absolute} is neither a folder nor a .csv manifest.`);
}
