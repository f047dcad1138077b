import { describe, expect, it } from 'vitest';
import { project, type AffineCamera } from './affine-camera.js';
import { canonicalFace } from './face-landmarks.js';
import { BROWS, INNER_LIP_BOTTOM, INNER_LIP_TOP } from './face-rig/landmark-groups.js';
import { buildBrowsAndLashes } from './head-eyelids.js';
import { closeLips } from './head-mouth.js';
import { analysisOf, SUBJECTS, syntheticView } from './test-support.js';
import { distance, lerp, type Vec3 } from './vec3.js';

const face = analysisOf('person-a').photos['image-frontal'].faces[0]!;
const canonical = (): Vec3[] => canonicalFace(face.mesh, 0.17).points.map((p): Vec3 => [...p]);
/** Pairs of the lips' inner edges, upper with lower, corners left out. */
const LIP_PAIRS = INNER_LIP_TOP.slice(1, -1).map(
  (u, k) => [u, [...INNER_LIP_BOTTOM].reverse()[k + 1]!] as const,
);

describe('lips', () => {
  it('closes lips the photo shows closed, so no teeth show between them', () => {
    const points = canonical();
    const before = points.map((p): Vec3 => [...p]);
    expect(
      Math.max(...LIP_PAIRS.map(([u, l]) => distance(points[u]!, points[l]!))),
    ).toBeGreaterThan(1e-4);
    expect(closeLips(points)).toBe(true);
    for (const [u, l] of LIP_PAIRS) {
      expect(distance(points[u]!, points[l]!)).toBeLessThan(1e-9);
      // They meet halfway.
      const middle = lerp(before[u]!, before[l]!, 0.5);
      expect(distance(points[u]!, middle)).toBeLessThan(1e-9);
    }
    // Nothing else moves.
    const lips = new Set(LIP_PAIRS.flat());
    points.forEach((p, i) => {
      if (!lips.has(i)) expect(p).toEqual(before[i]);
    });
  });

  it.each(SUBJECTS)('closes the lips %s was photographed with closed', (subject) => {
    const frontal = analysisOf(subject).photos['image-frontal'].faces[0]!;
    expect(closeLips(canonicalFace(frontal.mesh, 0.17).points.map((p): Vec3 => [...p]))).toBe(true);
  });

  it('leaves parted lips parted', () => {
    const points = canonical();
    for (const l of INNER_LIP_BOTTOM.slice(1, -1)) points[l] = [...points[l]!] as Vec3;
    for (const l of INNER_LIP_BOTTOM.slice(1, -1)) points[l]![1] -= 0.006;
    const before = points.map((p): Vec3 => [...p]);
    expect(closeLips(points)).toBe(false);
    expect(points).toEqual(before);
  });
});

describe('brows', () => {
  const SIZE = 600;
  const SKIN = [196, 140, 112] as const;
  const SHADOW = [90, 60, 45] as const;
  const HAIR = [40, 28, 20] as const;
  const points = canonical();
  const centre: Vec3 = [0, 0, -0.08];
  const s = 3000;
  const camera: AffineCamera = { x: [s, 0, 0, 0], y: [0, -s, 0, 0] };
  const [cx, cy] = project(camera, points[6]!);
  camera.x[3] = SIZE / 2 - cx;
  camera.y[3] = SIZE / 2 - cy;

  /**
   * A frontal photo of skin, with `fill` (of the height from the brow's lower
   * edge, 0, to its upper edge, 1) painted between them, and a shadow under the brow ridge.
   */
  function photo(fill: (t: number) => readonly number[]) {
    const rgb = new Uint8Array(SIZE * SIZE * 3);
    for (let i = 0; i < SIZE * SIZE; i++) rgb.set(SKIN, 3 * i);
    for (const side of [BROWS.right, BROWS.left]) {
      side.upper.forEach((u, i) => {
        if (i + 1 >= side.upper.length) return;
        const [a, b, c, d] = [u, side.upper[i + 1]!, side.lower[i + 1]!, side.lower[i]!].map((j) =>
          project(camera, points[j]!),
        ) as [[number, number], [number, number], [number, number], [number, number]];
        // Column by column: the brow's upper edge from a to b, its lower one from d to c.
        const along = (p: [number, number], q: [number, number], x: number) =>
          p[1] + ((q[1] - p[1]) * (x - p[0])) / (q[0] - p[0]);
        const [x0, x1] = [Math.min(a[0], d[0]), Math.max(b[0], c[0])].sort((m, n) => m - n);
        for (let x = Math.round(x0!); x <= Math.round(x1!); x++) {
          const upperY = Math.round(along(a, b, x));
          const lowerY = Math.round(along(d, c, x));
          for (let y = upperY; y <= lowerY; y++) {
            rgb.set(fill((lowerY - y) / Math.max(1, lowerY - upperY)), 3 * (y * SIZE + x));
          }
          // The shadow under the ridge, just below the brow's lower edge.
          for (let y = lowerY + 1; y <= lowerY + 6; y++) rgb.set(SHADOW, 3 * (y * SIZE + x));
        }
      });
    }
    return syntheticView('frontal', rgb, SIZE, camera);
  }
  const brow = (fill: (t: number) => readonly number[]) =>
    buildBrowsAndLashes(points, points, centre, photo(fill)).find((p) => p.name === 'Brows')!
      .material;
  /** The brow as it shows over the skin (its colour blended by its opacity), in sRGB bytes. */
  const browOverSkin = (fill: (t: number) => readonly number[]) => {
    const { baseColor } = brow(fill);
    // Back from linear to sRGB bytes, roughly: enough to tell skin from hair.
    return [0, 1, 2].map((k) => {
      const own = 255 * baseColor[k]! ** (1 / 2.2);
      return own * baseColor[3] + SKIN[k]! * (1 - baseColor[3]);
    });
  };
  const luma = (c: readonly number[]) => 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;

  it('lets the skin show where the photo shows no brow hair, not the shadow under the ridge', () => {
    expect(brow(() => SKIN).baseColor[3]).toBeLessThan(0.05);
    expect(brow(() => SKIN).alphaMode).toBe('BLEND');
    expect(browOverSkin(() => SKIN).every((c, k) => Math.abs(c - SKIN[k]!) < 12)).toBe(true);
    // Bare skin shaded down the brow ridge, to 40 % darker at its lower edge: the brow is
    // that skin on the whole (20 % darker), not its darkest shade or the shadow under it.
    const ridge = (t: number) => SKIN.map((c) => Math.round(c * (0.6 + 0.4 * t)));
    expect(luma(browOverSkin(ridge)) / luma(SKIN)).toBeGreaterThan(0.74);
  });

  it('takes the hair colour, opaque, where the photo shows brows', () => {
    expect(brow(() => HAIR).baseColor[3]).toBe(1);
    expect(brow(() => HAIR).alphaMode).toBe('OPAQUE');
    browOverSkin(() => HAIR).forEach((c, k) => expect(Math.abs(c - HAIR[k]!)).toBeLessThan(12));
  });
});

describe('lashes', () => {
  const points = canonical();
  const lashes = buildBrowsAndLashes(points, points, [0, 0, 0], undefined).find(
    (p) => p.name === 'Lashes',
  )!;
  const texture = lashes.material.texture!;
  /** The texture's alpha along a row at height v (0 the lid's edge, 1 the tips). */
  const row = (v: number) => {
    const y = Math.round(v * (texture.height - 1));
    return Array.from(
      { length: texture.width },
      (_, x) => texture.rgba![4 * (y * texture.width + x) + 3]!,
    );
  };
  /** Separate runs of at least half cover: hairs crossed by the row. */
  const runs = (alpha: number[]) =>
    alpha.filter((a, x) => a >= 128 && (x === 0 || alpha[x - 1]! < 128)).length;

  it('are single hairs rising from a lash line, blended, not one strip of their colour', () => {
    // As one opaque strip they were a visor over the eye.
    expect(lashes.material.alphaMode).toBe('BLEND');
    expect(Math.min(...row(0))).toBe(255);
    const middle = row(0.5);
    expect(runs(middle)).toBeGreaterThan(50);
    const bare = middle.filter((a) => a < 128).length / middle.length;
    expect(bare).toBeGreaterThan(0.3);
    expect(bare).toBeLessThan(0.85);
    // Thinning and fewer towards the tips.
    expect(row(0.95).reduce((s, a) => s + a, 0)).toBeLessThan(middle.reduce((s, a) => s + a, 0));
  });

  it('map the texture from the lid’s edge (v 0) to the tips (v 1), corner to corner in u', () => {
    const { mesh } = lashes;
    expect(mesh.hasUvs).toBe(true);
    for (let v = 0; v < mesh.vertexCount; v++) expect(mesh.uvs[2 * v + 1]).toBe(v % 2);
    const us = Array.from({ length: mesh.vertexCount }, (_, v) => mesh.uvs[2 * v]!);
    expect(Math.min(...us)).toBe(0);
    expect(Math.max(...us)).toBe(1);
  });
});
