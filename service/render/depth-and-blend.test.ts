import { describe, expect, it } from 'vitest';
import { textureFromRgba } from './test-support/test-meshes.js';
import { renderViews } from './render-views.js';
import { modelOf, pixelAt, square, viewOf } from './test-support/test-scenes.js';

const SIZE = 96;
const view = viewOf(SIZE, SIZE);
const centre = (rgba: Uint8Array) => pixelAt(rgba, SIZE, SIZE / 2, SIZE / 2);

const red = { baseColor: [1, 0, 0, 1] as [number, number, number, number] };
const green = { baseColor: [0, 1, 0, 1] as [number, number, number, number] };

describe('z-buffer', () => {
  const far = square([0, 0, -1], [0, 0, 1], 2.4, red);
  const near = square([0, 0, 0], [0, 0, 1], 1, green);

  it('shows the nearer surface whichever is drawn first', () => {
    for (const meshes of [
      [far, near],
      [near, far],
    ]) {
      const [r, g, , a] = centre(renderViews(modelOf(...meshes), [view], SIZE, SIZE));
      expect(a).toBe(255);
      expect(g).toBeGreaterThan(r + 80);
    }
    const nearFirst = renderViews(modelOf(near, far), [view], SIZE, SIZE);
    const farFirst = renderViews(modelOf(far, near), [view], SIZE, SIZE);
    expect(Buffer.compare(nearFirst, farFirst)).toBe(0);
    // The far square still shows around the near one.
    const [r, g] = pixelAt(farFirst, SIZE, 12, SIZE / 2);
    expect(r).toBeGreaterThan(g + 80);
  });

  it('decides per pixel, not per triangle, where surfaces cross', () => {
    // Two squares through the same centre, tilted opposite ways: each is nearer on one side.
    const leftNearer = square([0, 0, 0], [0.6, 0, 1], 1.2, red);
    const rightNearer = square([0, 0, 0], [-0.6, 0, 1], 1.2, green);
    const rgba = renderViews(modelOf(leftNearer, rightNearer), [view], SIZE, SIZE);
    const left = pixelAt(rgba, SIZE, SIZE / 2 - 12, SIZE / 2);
    const right = pixelAt(rgba, SIZE, SIZE / 2 + 12, SIZE / 2);
    expect(left[0]).toBeGreaterThan(left[1]);
    expect(right[1]).toBeGreaterThan(right[0]);
  });
});

describe('BLEND materials', () => {
  const behind = square([0, 0, -1], [0, 0, 1], 2.4, red);
  const glass = square([-0.5, 0, 0], [0, 0, 1], 1, {
    baseColor: [0, 0, 1, 0.5],
    alphaMode: 'BLEND',
  });

  it('tint what is behind them without hiding it, whatever the mesh order', () => {
    const images = [modelOf(glass, behind), modelOf(behind, glass)].map((model) =>
      renderViews(model, [view], SIZE, SIZE),
    );
    expect(Buffer.compare(images[0]!, images[1]!)).toBe(0);
    const rgba = images[0]!;
    const throughGlass = pixelAt(rgba, SIZE, 30, SIZE / 2);
    const besideGlass = pixelAt(rgba, SIZE, 70, SIZE / 2);
    // Red (plus a little white highlight) beside the glass; through it the red still shows,
    // dimmed, and blue is added.
    expect(throughGlass[0]).toBeGreaterThan(80);
    expect(throughGlass[0]).toBeLessThan(besideGlass[0] - 20);
    expect(throughGlass[2]).toBeGreaterThan(besideGlass[2] + 60);
    expect(throughGlass[3]).toBe(255);
  });

  it('are hidden by opaque surfaces in front of them', () => {
    const cover = square([-0.5, 0, 0.5], [0, 0, 1], 0.6, green);
    const withGlass = renderViews(modelOf(cover, glass, behind), [view], SIZE, SIZE);
    const withoutGlass = renderViews(modelOf(cover, behind), [view], SIZE, SIZE);
    const [r, g] = pixelAt(withGlass, SIZE, 30, SIZE / 2);
    expect(g).toBeGreaterThan(r + 80);
    expect(pixelAt(withGlass, SIZE, 30, SIZE / 2)).toEqual(
      pixelAt(withoutGlass, SIZE, 30, SIZE / 2),
    );
    // …while beside the cover the glass still tints.
    expect(pixelAt(withGlass, SIZE, 44, SIZE / 2)).not.toEqual(
      pixelAt(withoutGlass, SIZE, 44, SIZE / 2),
    );
  });

  it('leave the background partly transparent over nothing', () => {
    const rgba = renderViews(modelOf(glass), [view], SIZE, SIZE);
    const [r, , b, a] = pixelAt(rgba, SIZE, 30, SIZE / 2);
    expect(a).toBe(128);
    expect(b).toBeGreaterThan(r + 80);
  });
});

describe('faces', () => {
  const facingAway = square([0, 0, 0], [0, 0, -1], 1, green);

  it('are culled from behind unless the material is double-sided', () => {
    expect(centre(renderViews(modelOf(facingAway), [view], SIZE, SIZE))[3]).toBe(0);
    const twoSided = { ...facingAway, material: { ...facingAway.material, doubleSided: true } };
    const [, g, , a] = centre(renderViews(modelOf(twoSided), [view], SIZE, SIZE));
    expect(a).toBe(255);
    // Lit as seen, its normal flipped toward the viewer: as bright as the same square facing us.
    const [, facingG] = centre(
      renderViews(modelOf(square([0, 0, 0], [0, 0, 1], 1, green)), [view], SIZE, SIZE),
    );
    expect(g).toBe(facingG);
  });
});

describe('near plane', () => {
  it('clips triangles that reach behind the camera instead of dropping or smearing them', () => {
    // A floor running from behind the camera to far ahead of it.
    const floor = square([0, -0.5, -4], [0, 1, 0], 16, green);
    const rgba = renderViews(
      modelOf(floor),
      [viewOf(SIZE, SIZE, [0, 0, 3], [0, 0, -10])],
      SIZE,
      SIZE,
    );
    for (const x of [0, SIZE / 2, SIZE - 1]) expect(pixelAt(rgba, SIZE, x, SIZE - 1)[3]).toBe(255);
    expect(pixelAt(rgba, SIZE, SIZE / 2, 0)[3]).toBe(0); // sky above the horizon
  });
});

describe('MASK and OPAQUE materials', () => {
  it('MASK cuts out where texture alpha is below 0.5; OPAQUE ignores texture alpha', async () => {
    // 2×1 texture: left texel alpha 0.2, right texel alpha 0.8.
    const texture = await textureFromRgba(
      Uint8Array.of(255, 255, 255, 51, 255, 255, 255, 204),
      2,
      1,
    );
    const behind = square([0, 0, -1], [0, 0, 1], 2.4, red);
    const render = (alphaMode: 'MASK' | 'OPAQUE') =>
      renderViews(
        modelOf(square([0, 0, 0], [0, 0, 1], 1, { texture, alphaMode }), behind),
        [view],
        SIZE,
        SIZE,
      );
    const masked = render('MASK');
    const opaque = render('OPAQUE');
    const left = (rgba: Uint8Array) => pixelAt(rgba, SIZE, SIZE / 2 - 12, SIZE / 2);
    const right = (rgba: Uint8Array) => pixelAt(rgba, SIZE, SIZE / 2 + 12, SIZE / 2);
    expect(left(masked)[0]).toBeGreaterThan(left(masked)[1] + 80); // the red behind shows through
    expect(right(masked)).toEqual(right(opaque)); // white, fully opaque: not blended
    expect(right(masked)[1]).toBeGreaterThan(200);
    expect(left(opaque)[1]).toBeGreaterThan(200);
    expect(left(opaque)[3]).toBe(255);
  });
});
