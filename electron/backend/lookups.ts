import type { StudioRecords } from './studio-records.js';
import { StudioFailure } from './studio-failure.js';

/** The person, or a not_found failure the UI can show. */
export function requirePerson(records: StudioRecords, personId: string) {
  const person = records.person(personId);
  if (!person) throw new StudioFailure('not_found', 'No such person.');
  return person;
}

/** The avatar, or a not_found failure the UI can show. */
export function requireAvatar(records: StudioRecords, avatarId: string) {
  const avatar = records.avatar(avatarId);
  if (!avatar) throw new StudioFailure('not_found', 'This studio has no such avatar.');
  return avatar;
}

/** The saved file, or a not_found failure the UI can show. */
export function requireFile(records: StudioRecords, fileId: string) {
  const file = records.file(fileId);
  if (!file) throw new StudioFailure('not_found', 'No such file in the library.');
  return file;
}
