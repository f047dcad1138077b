import { beforeAll, describe, expect, it } from 'vitest';
import type { AvatarModel } from '../avatar-model/model.js';
import { SCENES, UnknownSceneError, isSceneName, renderAvatar, renderRgba } from './index.js';
import { sceneViews } from './scenes.js';
import { createSyntheticAvatar } from './test-support/synthetic-avatar.js';

const SIZE = 256;
const HOSTED_SCENES = [
  'common/transparent_half_body',
  'common/transparent_full_body',
  'common/forest_half_body',
  'common/forest_full_body',
  'common/city_full_body',
  'common/futuristic_fantasy_full_body',
];
let avatar: AvatarModel;
beforeAll(async () => {
  avatar = await createSyntheticAvatar();
});

/** The bounding box of pixels with any alpha, and how many there are. */
function coverage(
  rgba: Uint8Array,
  width: number,
  height: number,
  x0 = 0,
  y0 = 0,
  w = width,
  h = height,
) {
  let count = 0;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      if (rgba[(y * width + x) * 4 + 3] === 0) continue;
      count++;
      [minX, minY, maxX, maxY] = [
        Math.min(minX, x),
        Math.min(minY, y),
        Math.max(maxX, x),
        Math.max(maxY, y),
      ];
    }
  }
  return { count, minX, minY, maxX, maxY };
}

describe('scene registry', () => {
  it("lists our scenes and the hosted API's, preview first, and knows only those", () => {
    expect(SCENES.map((s) => s.name)).toEqual([
      'common/preview',
      'common/fullbody',
      'common/turnaround',
      ...HOSTED_SCENES,
    ]);
    for (const scene of SCENES) {
      expect(isSceneName(scene.name)).toBe(true);
      expect(scene.title.length).toBeGreaterThan(0);
      expect(scene.description.length).toBeGreaterThan(0);
    }
    expect(isSceneName('common/nowhere')).toBe(false);
    expect(isSceneName('common/Preview')).toBe(false);
  });

  it('rejects unknown scenes', async () => {
    expect(() => renderRgba(avatar, 'common/nowhere', SIZE, SIZE)).toThrow(UnknownSceneError);
    await expect(renderAvatar(avatar, { scene: 'common/nowhere', format: 'png' })).rejects.toThrow(
      /unknown scene 'common\/nowhere'.*common\/preview/,
    );
  });
});

describe('scene framing', () => {
  it('fullbody: the whole avatar, clear of every edge, filling most of the height', () => {
    const rgba = renderRgba(avatar, 'common/fullbody', SIZE, SIZE);
    const box = coverage(rgba, SIZE, SIZE);
    expect(box.minX).toBeGreaterThan(0);
    expect(box.minY).toBeGreaterThan(0);
    expect(box.maxX).toBeLessThan(SIZE - 1);
    expect(box.maxY).toBeLessThan(SIZE - 1);
    expect(box.maxY - box.minY).toBeGreaterThan(SIZE * 0.8);
  });

  it('fullbody: also for a wide frame, and centred', () => {
    const [width, height] = [400, 160];
    const box = coverage(renderRgba(avatar, 'common/fullbody', width, height), width, height);
    expect(box.minY).toBeGreaterThan(0);
    expect(box.maxY).toBeLessThan(height - 1);
    expect(Math.abs((box.minX + box.maxX) / 2 - width / 2)).toBeLessThan(4);
  });

  it('preview: head and shoulders, close up: space above the head, body cut by the bottom edge', () => {
    const rgba = renderRgba(avatar, 'common/preview', SIZE, SIZE);
    const box = coverage(rgba, SIZE, SIZE);
    expect(box.minY).toBeGreaterThan(4); // headroom
    expect(box.minY).toBeLessThan(SIZE * 0.2); // but not much
    expect(box.maxY).toBe(SIZE - 1); // shoulders run out of the frame
    // Much closer than the full body: the avatar covers far more of the frame.
    const whole = coverage(renderRgba(avatar, 'common/fullbody', SIZE, SIZE), SIZE, SIZE);
    expect(box.count).toBeGreaterThan(2 * whole.count);
  });

  it('turnaround: four panels, each with the avatar, each a different view', () => {
    const views = sceneViews(avatar, 'common/turnaround', SIZE, SIZE);
    // Arms down, the figure is tall and slim: a row of four shows it larger than a 2×2 grid.
    expect(views.map((v) => v.viewport)).toEqual([
      { x: 0, y: 0, width: 64, height: 256 },
      { x: 64, y: 0, width: 64, height: 256 },
      { x: 128, y: 0, width: 64, height: 256 },
      { x: 192, y: 0, width: 64, height: 256 },
    ]);
    const rgba = renderRgba(avatar, 'common/turnaround', SIZE, SIZE);
    const panels = views.map(({ viewport: { x, y, width, height } }) => {
      const box = coverage(rgba, SIZE, SIZE, x, y, width, height);
      // Inside its own panel, clear of the panel's edges.
      expect(box.count).toBeGreaterThan(500);
      expect(box.minX).toBeGreaterThan(x);
      expect(box.maxX).toBeLessThan(x + width - 1);
      expect(box.minY).toBeGreaterThan(y);
      expect(box.maxY).toBeLessThan(y + height - 1);
      const pixels = new Uint8Array(width * height * 4);
      for (let row = 0; row < height; row++) {
        pixels.set(
          rgba.subarray(((y + row) * SIZE + x) * 4, ((y + row) * SIZE + x + width) * 4),
          row * width * 4,
        );
      }
      return { box, pixels };
    });
    // Mean colour difference over the pixels where either panel shows the avatar.
    const difference = (a: Uint8Array, b: Uint8Array) => {
      let sum = 0;
      let count = 0;
      for (let i = 0; i < a.length; i += 4) {
        if (a[i + 3] === 0 && b[i + 3] === 0) continue;
        for (let c = 0; c < 4; c++) sum += Math.abs(a[i + c]! - b[i + c]!);
        count += 4;
      }
      return sum / count;
    };
    for (let i = 0; i < panels.length; i++) {
      for (let j = i + 1; j < panels.length; j++) {
        // Identical views would score 0; front and back, alike in outline, score about 13.
        const score = difference(panels[i]!.pixels, panels[j]!.pixels);
        expect(score, `panels ${i} and ${j}`).toBeGreaterThan(8);
      }
    }
    // Profiles are much narrower than the front, arms down as they are.
    const [front, side, , otherSide] = panels.map((p) => p.box.maxX - p.box.minX);
    expect(side!).toBeLessThan(front! * 0.6);
    expect(otherSide!).toBeLessThan(front! * 0.6);
  });

  it('turnaround: in the idle pose, so no arm stands between a side view and the face', () => {
    const [front] = sceneViews(avatar, 'common/turnaround', SIZE, SIZE);
    const { x, y, width, height } = front!.viewport;
    const box = coverage(
      renderRgba(avatar, 'common/turnaround', SIZE, SIZE),
      SIZE,
      SIZE,
      x,
      y,
      width,
      height,
    );
    const tpose = coverage(renderRgba(avatar, 'common/fullbody', SIZE, SIZE), SIZE, SIZE);
    const ratio = (b: typeof box) => (b.maxX - b.minX) / (b.maxY - b.minY);
    expect(ratio(box)).toBeLessThan(0.75 * ratio(tpose));
  });

  it('turnaround: lays the panels out in a row for a wide strip', () => {
    const views = sceneViews(avatar, 'common/turnaround', 1024, 256);
    expect(views.map((v) => [v.viewport.x, v.viewport.y])).toEqual([
      [0, 0],
      [256, 0],
      [512, 0],
      [768, 0],
    ]);
  });
});

describe("the hosted API's scenes", () => {
  const opaque = (rgba: Uint8Array) => rgba.every((v, i) => i % 4 !== 3 || v === 255);

  it.each(HOSTED_SCENES)('%s: the avatar in the idle pose, arms down', (scene) => {
    const rgba = renderRgba(avatar, scene, SIZE, SIZE);
    const tpose = coverage(renderRgba(avatar, 'common/fullbody', SIZE, SIZE), SIZE, SIZE);
    if (scene.includes('transparent')) {
      expect(opaque(rgba)).toBe(false);
      const box = coverage(rgba, SIZE, SIZE);
      expect(box.minY).toBeGreaterThan(0);
      expect(box.count).toBeGreaterThan(SIZE * SIZE * 0.05);
      // Arms down: narrower than the T-pose for its height.
      const ratio = (b: typeof box) => (b.maxX - b.minX) / (b.maxY - b.minY);
      if (scene.endsWith('full_body')) expect(ratio(box)).toBeLessThan(0.75 * ratio(tpose));
      // A half body runs out of the frame's bottom edge.
      if (scene.endsWith('half_body')) expect(box.maxY).toBe(SIZE - 1);
    } else {
      expect(opaque(rgba)).toBe(true);
    }
  });

  it('paints each backdrop differently, behind the same avatar', () => {
    const corners = ['forest', 'city', 'futuristic_fantasy'].map((theme) => {
      const rgba = renderRgba(avatar, `common/${theme}_full_body`, SIZE, SIZE);
      return Array.from(rgba.subarray(0, 4));
    });
    expect(new Set(corners.map((c) => c.join())).size).toBe(3);
  });

  it('poses the avatar without changing the model it was given', () => {
    const before = Float32Array.from(avatar.meshes[0]!.positions);
    renderRgba(avatar, 'common/transparent_full_body', 64, 64);
    expect(avatar.meshes[0]!.positions).toEqual(before);
  });
});
