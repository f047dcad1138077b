import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UPLOAD_PHOTO_FIELDS } from '../../../shared/api/index.js';
import { analysisOf, PHOTO_OF_FIELD, photosFor, SUBJECTS } from './test-support.js';

// The stored analyses were made from photos the tests make again (stretched or turned with
// sharp): were they to drift apart, the builder would read landmarks off photos they were not
// found in.
describe('the subjects the builder tests build', () => {
  it.each(SUBJECTS)('%s: the photos are the size the stored analysis was made at', async (s) => {
    const photos = await photosFor(s);
    const analysis = analysisOf(s);
    for (const field of UPLOAD_PHOTO_FIELDS) {
      const { width, height } = await sharp(photos[PHOTO_OF_FIELD[field]]).metadata();
      expect([width, height], field).toEqual([
        analysis.photos[field].width,
        analysis.photos[field].height,
      ]);
    }
  });
});
