import type { Library } from './library.js';
import type { StudioRecords } from './studio-records.js';

/**
 * Keeps each avatar's `metadata.json` in the library: what was captured,
 * every customization version and every saved file, so a library folder
 * copied elsewhere still explains itself.
 */
export function libraryMetadata(records: StudioRecords, library: Library) {
  return function writeMetadata(avatarId: string): void {
    const detail = records.avatarDetail(avatarId);
    if (!detail) return;
    const metadata = {
      avatarId,
      personId: detail.personId,
      status: detail.status,
      failure: detail.failure,
      photos: records.photos(avatarId),
      customizationVersions: records.customizationHistory(avatarId),
      files: detail.files,
    };
    library.write(detail.personId, avatarId, 'metadata.json', JSON.stringify(metadata, null, 2));
  };
}
