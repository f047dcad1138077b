import { describe, expect, it, vi } from 'vitest';
import { fitRigidCamera, towardCamera } from './affine-camera.js';
import { canonicalFace } from './face-landmarks.js';
import { buildEars, type BuiltEars } from './head-ears.js';
import { measureNeck } from './head-neck.js';
import { fitSkullToPhotos } from './head-silhouette.js';
import { SEAM_BAND } from './head-texture.js';
import { bakeHeadTextureInParallel } from './head-texture-parallel.js';
import { SUBJECT_MASK_SHRINK, type PhotoView } from './photo-views.js';
import { analysisOf, build } from './test-support.js';
import type * as Ears from './head-ears.js';
import type * as Neck from './head-neck.js';
import type * as Silhouette from './head-silhouette.js';
import type * as Texture from './head-texture-parallel.js';

// Pass-through spies: the head is built as ever, and the test sees the cameras each step got.
vi.mock('./head-silhouette.js', async (importOriginal) => {
  const real = await importOriginal<typeof Silhouette>();
  return { ...real, fitSkullToPhotos: vi.fn(real.fitSkullToPhotos) };
});
vi.mock('./head-ears.js', async (importOriginal) => {
  const real = await importOriginal<typeof Ears>();
  return { ...real, buildEars: vi.fn(real.buildEars) };
});
vi.mock('./head-neck.js', async (importOriginal) => {
  const real = await importOriginal<typeof Neck>();
  return { ...real, measureNeck: vi.fn(real.measureNeck) };
});
vi.mock('./head-texture-parallel.js', async (importOriginal) => {
  const real = await importOriginal<typeof Texture>();
  return { ...real, bakeHeadTextureInParallel: vi.fn(real.bakeHeadTextureInParallel) };
});

const DEGREES = 180 / Math.PI;
const elevation = (view: PhotoView) => Math.asin(view.toward[1]) * DEGREES;

/** The turned photos' cameras as their landmarks alone place them: pitched off the frontal one. */
function pitchAsFitted(person: 'person-a'): number[] {
  const analysis = analysisOf(person);
  const points = canonicalFace(analysis.photos['image-frontal'].faces[0]!.mesh, 0.2).points;
  const pitch = (field: 'image-frontal' | 'image-side-1' | 'image-side-2') =>
    Math.asin(towardCamera(fitRigidCamera(points, analysis.photos[field].faces[0]!.mesh))[1]) *
    DEGREES;
  const frontal = pitch('image-frontal');
  return [pitch('image-side-1') - frontal, pitch('image-side-2') - frontal];
}

describe('the head builder', () => {
  it('fits the skull, measures the neck and textures the head and ears through the levelled turned cameras', async () => {
    // As fitted, the fixture's turned cameras look from degrees above or below the frontal one,
    // so a camera that was not levelled shows.
    for (const off of pitchAsFitted('person-a')) expect(Math.abs(off)).toBeGreaterThan(2);
    await build('person-a');
    const consumers: [string, readonly PhotoView[]][] = [
      ['skull fit', vi.mocked(fitSkullToPhotos).mock.calls[0]![1]],
      ['neck', vi.mocked(measureNeck).mock.calls[0]![1]],
      ['texture', vi.mocked(bakeHeadTextureInParallel).mock.calls[0]![0].views],
      ['ears', vi.mocked(buildEars).mock.calls[0]![3]],
    ];
    for (const [step, views] of consumers) {
      const frontal = views.find((v) => v.name === 'frontal');
      expect(frontal, step).toBeDefined();
      const turned = views.filter((v) => v !== frontal);
      expect(turned.map((v) => v.name).sort(), step).toEqual(['side-1', 'side-2']);
      for (const view of turned) {
        expect(elevation(view) - elevation(frontal!), `${step}: ${view.name}`).toBeCloseTo(0, 6);
      }
    }
  });
  it('textures the skull without the photographed ears, which the ears themselves wear', async () => {
    await build('person-a');
    const ears: BuiltEars = await vi.mocked(buildEars).mock.results[0]!.value;
    const earViews = vi.mocked(buildEars).mock.calls[0]![3];
    const skullViews = vi.mocked(bakeHeadTextureInParallel).mock.calls[0]![0].views;
    // Both fixture ears show in the turned photos.
    expect(ears.photographed.map((e) => e.view).sort()).toEqual(['side-1', 'side-2']);
    for (const { view: name, region } of ears.photographed) {
      const subjectAt = (view: PhotoView) => {
        const mw = Math.ceil(view.width / SUBJECT_MASK_SHRINK);
        const x = Math.floor((region.left + region.width / 2) / SUBJECT_MASK_SHRINK);
        const y = Math.floor((region.top + region.height / 2) / SUBJECT_MASK_SHRINK);
        return view.subject![y * mw + x]!;
      };
      expect(subjectAt(earViews.find((v) => v.name === name)!), name).toBeGreaterThan(200);
      expect(subjectAt(skullViews.find((v) => v.name === name)!), name).toBe(0);
    }
  });

  it("fades the photos into the body's skin only near the neck, not over the whole head", async () => {
    await build('person-a');
    const seamDistance = vi.mocked(bakeHeadTextureInParallel).mock.calls[0]![0].seamDistance!;
    // The face's landmarks from the brows up (10: the forehead's middle; 151, 9: below it) are
    // far above the neck: their photos' colours are whole there.
    for (const v of [10, 151, 9, 8])
      expect(seamDistance[v], `landmark ${v}`).toBeGreaterThanOrEqual(SEAM_BAND);
    const fadedAway = Array.from(
      { length: seamDistance.length },
      (_, v) => seamDistance[v]!,
    ).filter((d) => d < SEAM_BAND);
    // Only a band round the neck fades: most of the head is not.
    expect(fadedAway.length).toBeLessThan(0.3 * seamDistance.length);
  });
});
