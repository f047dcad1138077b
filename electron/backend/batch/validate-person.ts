import path from 'node:path';
import type { BodyType } from '../../../shared/api/index.js';
import { checkPhoto } from '../api/upload.js';
import { SLOTS, type ScannedPerson, type Slot } from './scan-input.js';

const FIELD = {
  frontal: 'image-frontal',
  side1: 'image-side-1',
  side2: 'image-side-2',
} as const satisfies Record<Slot, string>;
const LABEL: Record<Slot, string> = { frontal: 'frontal', side1: 'side-1', side2: 'side-2' };

export interface CheckedPerson extends ScannedPerson {
  /** From person.json or the manifest, else the batch default. */
  bodyType: BodyType | null;
  /** Null when the person can be sent. */
  problem: string | null;
}

/**
 * Everything that can be known to be wrong before a byte is sent: a problem
 * in the input, a missing photo, a file that cannot be read or is not an
 * image by its magic bytes, no body type.
 */
export async function validatePerson(
  person: ScannedPerson,
  defaultBodyType: BodyType | null,
): Promise<CheckedPerson> {
  const bodyType = person.bodyType ?? defaultBodyType;
  const fail = (problem: string): CheckedPerson => ({ ...person, bodyType, problem });
  if (person.problem) return fail(person.problem);
  const missing = SLOTS.filter((slot) => !person.photos[slot]);
  if (missing.length)
    return fail(
      `Missing photo${missing.length > 1 ? 's' : ''}: ${missing.map((s) => LABEL[s]).join(', ')}.`,
    );
  for (const slot of SLOTS) {
    const file = person.photos[slot]!;
    try {
      await checkPhoto({ field: FIELD[slot], path: file });
    } catch (error) {
      const code = (error as { code?: string }).code;
      return fail(
        code
          ? `The ${LABEL[slot]} photo ${path.basename(file)} cannot be read (${code}).`
          : `${(error as Error).message.replace(`The ${FIELD[slot]} photo`, `The ${LABEL[slot]} photo ${path.basename(file)}`)}`,
      );
    }
  }
  if (!bodyType)
    return fail('No body type: give body_type in person.json or the manifest, or --body-type.');
  return { ...person, bodyType, problem: null };
}

export const UPLOAD_FIELD = FIELD;
