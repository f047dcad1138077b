import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { StoredAnalysis } from '../../processing/processing-repo.js';
import { buildAvatar } from './build-avatar.js';
import { headAtlasSize } from './head-builder.js';
import {
  analysisOf,
  build,
  customize,
  inputFor,
  mesh,
  photosOf,
  validate,
} from './test-support.js';
import { writeGlb } from './write-glb.js';

/** The same photo series as if shot at `factor` times the resolution. */
async function sharper(factor: number) {
  const person = 'person-a' as const;
  const up = async (bytes: Uint8Array) => {
    const { width } = await sharp(bytes).metadata();
    return new Uint8Array(
      await sharp(bytes)
        .resize(Math.round(width! * factor))
        .jpeg({ quality: 92 })
        .toBuffer(),
    );
  };
  const photos = photosOf(person);
  const analysis = analysisOf(person);
  const scaled: StoredAnalysis = {
    ...analysis,
    photos: Object.fromEntries(
      Object.entries(analysis.photos).map(([key, photo]) => [
        key,
        {
          ...photo,
          width: photo.width * factor,
          height: photo.height * factor,
          faces: photo.faces.map((f) => ({
            ...f,
            box: f.box.map((v) => v * factor) as typeof f.box,
            faceHeight: f.faceHeight * factor,
            mesh: f.mesh.map((p) => p.map((v) => v * factor) as typeof p),
          })),
        },
      ]),
    ) as StoredAnalysis['photos'],
  };
  return buildAvatar({
    ...inputFor(person, customize()),
    analysis: scaled,
    photos: {
      frontal: await up(photos.frontal),
      side1: await up(photos.side1),
      side2: await up(photos.side2),
    },
  });
}

describe('the head texture', () => {
  it('is as large as the photographed face needs, up to 2048²', () => {
    expect(headAtlasSize(300)).toBe(1024);
    expect(headAtlasSize(1000)).toBe(2048);
    expect(headAtlasSize(5000)).toBe(2048);
  });

  it('is 1024² from the 1024² fixture photos and 2048² from the same people shot sharper, within the file budget', async () => {
    const plain = mesh(await build('person-a'), 'Head').material.texture!;
    expect([plain.width, plain.height]).toEqual([1024, 1024]);
    const model = await sharper(2.5);
    const texture = mesh(model, 'Head').material.texture!;
    expect([texture.width, texture.height]).toEqual([2048, 2048]);
    const glb = await writeGlb(model);
    expect(glb.byteLength).toBeLessThanOrEqual(8 * 1024 * 1024);
    const report = await validate(glb);
    expect(report.issues.numErrors).toBe(0);
    expect(report.issues.numWarnings).toBe(0);
  });
});
