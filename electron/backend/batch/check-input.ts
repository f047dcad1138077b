import type { BodyType } from '../../../shared/api/index.js';
import { StudioFailure } from '../studio-failure.js';
import { InputError, scanInput, type ScannedPerson } from './scan-input.js';
import { validatePerson, type CheckedPerson } from './validate-person.js';

/** Files are opened a few at a time: a folder of 500 people must not open 1500 files at once. */
async function checkAll(people: ScannedPerson[], bodyType: BodyType | null) {
  const checked = new Array<CheckedPerson>(people.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < people.length; i = next++)
      checked[i] = await validatePerson(people[i]!, bodyType);
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return checked;
}

/** Scans the input and checks every person; an unreadable input is a `bad_input` failure. */
export async function scanAndCheck(input: string, bodyType: BodyType | null) {
  let scanned;
  try {
    scanned = scanInput(input);
  } catch (error) {
    if (error instanceof InputError) throw new StudioFailure('bad_input', error.message);
    throw error;
  }
  return { ...scanned, people: await checkAll(scanned.people, bodyType) };
}
