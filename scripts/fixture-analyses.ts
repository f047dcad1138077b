/**
 * Refreshes the builder's fixture analyses from the fixture photos, as the
 * service's processing makes them (Human's landmarks, hair, skin, verdict).
 * With `--variant`, of the photos changed as test-support's VARIANTS says:
 * cropped (the landmarks then mapped back to the whole photo), or stretched
 * or tilted (the analysis is of the changed photos, which the tests build
 * from). The upload's body type and telephoto flag are kept from the plain
 * analysis.
 *
 *   npx tsx scripts/fixture-analyses.ts [--variant crop-900|wide|narrow|long|tilted]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { z } from 'zod';
import { UPLOAD_PHOTO_FIELDS, type UploadPhotoField } from '../shared/api/index.js';
import {
  PEOPLE,
  PHOTO_OF_FIELD,
  VARIANTS,
  analysisOf,
  photosOf,
  reshaped,
  type CropBox,
  type Variant,
} from '../service/avatar-model/builder/test-support.js';
import { createPhotoAnalyzer } from '../service/processing/photo-analyzer.js';
import type { PhotoAnalysis } from '../service/processing/photo-types.js';
import { judgedAnalysis } from '../service/processing/pipeline.js';
import { writeFileAtomic } from '../service/storage/atomic-write.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'service/avatar-model/builder/test-fixtures');
const Args = z.object({
  variant: z.enum(Object.keys(VARIANTS) as [Variant, ...Variant[]]).optional(),
});

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

/** A photo as Human sees it for the variant, and its analysis as the builder is to read it. */
async function analyseAs(
  analyzer: Awaited<ReturnType<typeof createPhotoAnalyzer>>,
  bytes: Uint8Array,
  variant: Variant | undefined,
): Promise<PhotoAnalysis> {
  const how = variant ? VARIANTS[variant] : undefined;
  if (!how) return analyzer.analyze(bytes);
  if (!('crop' in how)) return analyzer.analyze(await reshaped(bytes, how));
  const whole = await sharp(bytes).metadata();
  const { crop } = how;
  if (crop.left + crop.width > whole.width! || crop.top + crop.height > whole.height!) {
    throw new Error(`the crop reaches past the ${whole.width}×${whole.height} photo`);
  }
  const cut = await sharp(bytes).extract(crop).jpeg({ quality: 95 }).toBuffer();
  return uncropped(await analyzer.analyze(new Uint8Array(cut)), crop, {
    width: whole.width!,
    height: whole.height!,
  });
}

const { values } = parseArgs({ options: { variant: { type: 'string' } } });
const { variant } = Args.parse(values);
const analyzer = await createPhotoAnalyzer();
try {
  for (const person of PEOPLE) {
    const analyses = {} as Record<UploadPhotoField, PhotoAnalysis>;
    const photos = photosOf(person);
    for (const field of UPLOAD_PHOTO_FIELDS) {
      analyses[field] = await analyseAs(analyzer, photos[PHOTO_OF_FIELD[field]], variant);
    }
    const before = analysisOf(person);
    const { verdict, analysis } = judgedAnalysis(analyses, {
      bodyType: before.body_type,
      telephoto: before.telephoto,
    });
    if (!verdict.ok) throw new Error(`${person}: ${verdict.reason}`);
    const name = variant ? `${person}.${variant}` : person;
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
