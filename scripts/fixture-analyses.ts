/**
 * Refreshes the builder's fixture analyses from the fixture photos, as the
 * service's processing makes them (Human's landmarks, hair, skin, verdict).
 * With `--crop left,top,width,height` each photo is first cropped so, and
 * the landmarks mapped back to the whole photo: the same person with the
 * face framed otherwise, whose landmarks differ by a few pixels, for checks
 * that must hold beyond one landmark set. The upload's body type and
 * telephoto flag are kept from the uncropped analysis.
 *
 *   npx tsx scripts/fixture-analyses.ts [--crop 0,0,900,900 --suffix crop-900]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { z } from 'zod';
import { UPLOAD_PHOTO_FIELDS, type UploadPhotoField } from '../shared/api/index.js';
import { PEOPLE, analysisOf, photosOf } from '../service/avatar-model/builder/test-support.js';
import { createPhotoAnalyzer } from '../service/processing/photo-analyzer.js';
import type { PhotoAnalysis } from '../service/processing/photo-types.js';
import { judgedAnalysis } from '../service/processing/pipeline.js';
import { writeFileAtomic } from '../service/storage/atomic-write.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'service/avatar-model/builder/test-fixtures');
const PHOTO_OF = {
  'image-frontal': 'frontal',
  'image-side-1': 'side1',
  'image-side-2': 'side2',
} as const satisfies Record<UploadPhotoField, string>;

const Crop = z
  .string()
  .regex(/^\d+,\d+,\d+,\d+$/, 'left,top,width,height in pixels')
  .transform((s) => {
    const [left, top, width, height] = s.split(',').map(Number) as [number, number, number, number];
    return { left, top, width, height };
  })
  .refine((c) => c.width > 0 && c.height > 0, 'a crop has a size');
const Args = z
  .object({
    crop: Crop.optional(),
    suffix: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .optional(),
  })
  .refine((a) => !a.crop === !a.suffix, 'a crop needs a suffix for its files, and only a crop');

type CropBox = z.infer<typeof Crop>;

/** The analysis of a cropped photo as if of the whole one: pixel coordinates shifted back. */
function uncropped(a: PhotoAnalysis, crop: CropBox, whole: { width: number; height: number }) {
  return {
    ...a,
    width: whole.width,
    height: whole.height,
    faces: a.faces.map((f) => ({
      ...f,
      box: [f.box[0] + crop.left, f.box[1] + crop.top, f.box[2], f.box[3]] as typeof f.box,
      mesh: f.mesh.map(([x, y, z]) => [x + crop.left, y + crop.top, z] as (typeof f.mesh)[number]),
      meshRaw: f.meshRaw.map(
        ([x, y, z]) =>
          [
            (x * crop.width + crop.left) / whole.width,
            (y * crop.height + crop.top) / whole.height,
            z,
          ] as (typeof f.meshRaw)[number],
      ),
    })),
  };
}

const { values } = parseArgs({
  options: { crop: { type: 'string' }, suffix: { type: 'string' } },
});
const args = Args.parse(values);
const analyzer = await createPhotoAnalyzer();
try {
  for (const person of PEOPLE) {
    const analyses = {} as Record<UploadPhotoField, PhotoAnalysis>;
    const photos = photosOf(person);
    for (const field of UPLOAD_PHOTO_FIELDS) {
      const bytes = photos[PHOTO_OF[field]];
      const { crop } = args;
      if (!crop) {
        analyses[field] = await analyzer.analyze(bytes);
        continue;
      }
      const whole = await sharp(bytes).metadata();
      if (crop.left + crop.width > whole.width! || crop.top + crop.height > whole.height!) {
        throw new Error(
          `${person} ${field}: the crop reaches past the ${whole.width}×${whole.height} photo`,
        );
      }
      const cut = await sharp(bytes).extract(crop).jpeg({ quality: 95 }).toBuffer();
      analyses[field] = uncropped(await analyzer.analyze(new Uint8Array(cut)), crop, {
        width: whole.width!,
        height: whole.height!,
      });
    }
    const before = analysisOf(person);
    const { verdict, analysis } = judgedAnalysis(analyses, {
      bodyType: before.body_type,
      telephoto: before.telephoto,
    });
    if (!verdict.ok) throw new Error(`${person}: ${verdict.reason}`);
    const name = args.suffix ? `${person}.${args.suffix}` : person;
    writeFileAtomic(
      path.join(OUT, `${name}.analysis.json`),
      `${JSON.stringify(analysis, null, 2)}\n`,
    );
    console.log(
      `${name}: yaw ${UPLOAD_PHOTO_FIELDS.map((f) => analyses[f].faces[0]?.yaw.toFixed(1)).join(' / ')}`,
    );
  }
} finally {
  analyzer.dispose();
}
