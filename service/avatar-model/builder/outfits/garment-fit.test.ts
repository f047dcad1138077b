import { describe, expect, it } from 'vitest';
import type { AvatarMesh, AvatarModel } from '../../model.js';
import { IDLE_POSE, walkPose } from '../animations/clips.js';
import { posedModel, resolvePose, Y, type PoseSpec } from '../animations/pose.js';
import { build, joint, mesh, styleId, vertexAt } from '../test-support.js';
import { cross, dot, normalize, sub, type Vec3 } from '../vec3.js';

/** How far a covered body vertex may come out through its garment. */
const TOLERANCE = 0.002;
/** A body vertex is covered when a garment lies over it within this distance in the T-pose. */
const COVER_DEPTH = 0.04;
const CELL = 0.02;

const at = vertexAt;

/** The point of triangle abc nearest p, and whether p projects inside it. */
function nearestOnTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): { q: Vec3; inside: boolean } {
  const n = cross(sub(b, a), sub(c, a));
  const area = dot(n, n);
  if (area < 1e-20) return { q: a, inside: false };
  const d = dot(sub(p, a), n) / area;
  const proj: Vec3 = [p[0] - n[0] * d, p[1] - n[1] * d, p[2] - n[2] * d];
  const w0 = dot(cross(sub(b, proj), sub(c, proj)), n) / area;
  const w1 = dot(cross(sub(c, proj), sub(a, proj)), n) / area;
  const w2 = 1 - w0 - w1;
  if (w0 >= 0 && w1 >= 0 && w2 >= 0) return { q: proj, inside: true };
  // Outside: the nearest of the three vertices is close enough for the check's purpose.
  const best = [a, b, c].sort((x, y) => dot(sub(p, x), sub(p, x)) - dot(sub(p, y), sub(p, y)))[0]!;
  return { q: best, inside: false };
}

interface Cover {
  vertex: number;
  /** Garment triangles near the vertex in the T-pose: the ones that can cover it in any pose. */
  triangles: number[];
}

/** Signed distance of p from the nearest of the triangles: positive outside the garment. */
function signedDistance(p: Vec3, m: AvatarMesh, triangles: readonly number[]) {
  let best = { distance: Infinity, signed: 0, inside: false };
  for (const t of triangles) {
    const [a, b, c] = [0, 1, 2].map((k) => at(m, m.indices[3 * t + k]!)) as [Vec3, Vec3, Vec3];
    const { q, inside } = nearestOnTriangle(p, a, b, c);
    const offset = sub(p, q);
    const distance = Math.hypot(...offset);
    if (distance < best.distance) {
      best = { distance, signed: dot(offset, normalize(cross(sub(b, a), sub(c, a)))), inside };
    }
  }
  return best;
}

/**
 * How far p lies outside the garment: 0 when any layer of it (a sleeve over
 * the body of a shirt, say) still lies over p, else the distance out through
 * the nearest layer it passed.
 */
function outside(p: Vec3, m: AvatarMesh, triangles: readonly number[]): number {
  let out = Infinity;
  for (const t of triangles) {
    const [a, b, c] = [0, 1, 2].map((k) => at(m, m.indices[3 * t + k]!)) as [Vec3, Vec3, Vec3];
    const { q, inside } = nearestOnTriangle(p, a, b, c);
    if (!inside) continue;
    const signed = dot(sub(p, q), normalize(cross(sub(b, a), sub(c, a))));
    if (signed <= 0 && -signed < COVER_DEPTH) return 0;
    if (signed > 0) out = Math.min(out, signed);
  }
  return out === Infinity ? Math.max(0, signedDistance(p, m, triangles).signed) : out;
}

/** The garments as one mesh: a vertex covered by any layer of any of them is covered. */
function combined(model: AvatarModel, names: readonly string[]): AvatarMesh {
  const parts = names.map((n) => mesh(model, n));
  const positions = new Float32Array(parts.reduce((s, m) => s + m.positions.length, 0));
  const indices = new Uint32Array(parts.reduce((s, m) => s + m.indices.length, 0));
  let vertex = 0;
  let index = 0;
  for (const m of parts) {
    positions.set(m.positions, 3 * vertex);
    for (let i = 0; i < m.indices.length; i++) indices[index + i] = m.indices[i]! + vertex;
    vertex += m.positions.length / 3;
    index += m.indices.length;
  }
  return { ...parts[0]!, name: names.join('+'), positions, indices };
}

/** Body vertices a garment covers in the T-pose, with the garment triangles around each. */
function coveredVertices(model: AvatarModel, garments: readonly string[]): Cover[] {
  const body = mesh(model, 'Body');
  const covers: Cover[] = [];
  {
    const garment = combined(model, garments);
    const grid = new Map<string, number[]>();
    const key = (p: Vec3) => p.map((v) => Math.floor(v / CELL)).join();
    for (let t = 0; t < garment.indices.length / 3; t++) {
      const c = at(garment, garment.indices[3 * t]!);
      const k = key(c);
      grid.set(k, [...(grid.get(k) ?? []), t]);
    }
    for (let v = 0; v < body.positions.length / 3; v++) {
      const p = at(body, v);
      const cell = p.map((x) => Math.floor(x / CELL));
      const triangles: number[] = [];
      for (let dx = -2; dx <= 2; dx++)
        for (let dy = -2; dy <= 2; dy++)
          for (let dz = -2; dz <= 2; dz++)
            triangles.push(
              ...(grid.get([cell[0]! + dx, cell[1]! + dy, cell[2]! + dz].join()) ?? []),
            );
      if (triangles.length === 0) continue;
      const d = signedDistance(p, garment, triangles);
      if (d.inside && d.signed < 0 && d.distance < COVER_DEPTH) {
        covers.push({ vertex: v, triangles });
      }
    }
  }
  return covers;
}

/** How far each covered body vertex comes out through its garment in the pose (0 when it stays in). */
function pokes(
  model: AvatarModel,
  garments: readonly string[],
  covers: readonly Cover[],
  spec: PoseSpec,
): number[] {
  const posed = posedModel(model, resolvePose(model.joints, spec));
  const body = mesh(posed, 'Body');
  const garment = combined(posed, garments);
  return covers.map((c) => outside(at(body, c.vertex), garment, c.triangles));
}

const POSES: Record<string, PoseSpec> = {
  idle: IDLE_POSE,
  walk: walkPose(1),
  'walk, other foot': walkPose(-1),
  'head left': { turns: [...IDLE_POSE.turns, ['Neck', Y, 10], ['Head', Y, 30]] },
  'head right': { turns: [...IDLE_POSE.turns, ['Neck', Y, -10], ['Head', Y, -30]] },
};

type Body = 'body_0' | 'body_1';

/** Person-a in the style, on the upload's male body (body_0) unless told otherwise. */
const dressed = (style: string, body?: Body) =>
  build('person-a', {
    ...(body ? { body } : {}),
    assets: {
      clothing: { id: styleId(style) },
      hair_and_headwear: null,
      eyewear: null,
      footwear: { id: styleId('sneakers') },
    },
  });

/** Body vertices out by more than the tolerance, per pose, with the worst depth. */
function fitReport(
  model: AvatarModel,
  garments: readonly string[],
  poses: readonly string[],
): string[] {
  const covers = coveredVertices(model, garments);
  const body = mesh(model, 'Body');
  const failures: string[] = [];
  for (const name of poses) {
    const spec = POSES[name]!;
    const out = pokes(model, garments, covers, spec);
    const through = out.filter((d) => d > TOLERANCE).length;
    if (through === 0) continue;
    const worst = out.indexOf(Math.max(...out));
    const where = at(body, covers[worst]!.vertex).map((x) => x.toFixed(3));
    failures.push(
      `${name}: ${through} out, worst ${(out[worst]! * 1000).toFixed(1)} mm at ${where}`,
    );
  }
  return failures;
}

describe.each(['tshirt', 'hoodie', 'shirt', 'jersey'])('the %s outfit', (style) => {
  it('covers the torso and the legs down into the shoes', async () => {
    const model = await dressed(style);
    const covers = coveredVertices(model, ['Clothing', 'Trousers', 'Shoes']);
    const body = mesh(model, 'Body');
    // Hands are polygonised finer than the rest, so the share is of the vertices inside the wrists.
    const wrist = Math.abs(joint(model, 'LeftHand')[0]);
    let armsIn = 0;
    for (let v = 0; v < body.positions.length / 3; v++) {
      if (Math.abs(body.positions[3 * v]!) < wrist) armsIn++;
    }
    expect(covers.length).toBeGreaterThan(0.35 * armsIn);
    for (const bone of ['LeftLeg', 'RightLeg', 'LeftUpLeg', 'Spine1']) {
      const y = model.joints.find((j) => j.name === bone)!.position[1];
      const around = covers.filter((c) => Math.abs(at(body, c.vertex)[1] - y) < 0.02);
      expect(around.length, bone).toBeGreaterThan(10);
    }
  }, 120_000);

  it('keeps the skin within 2 mm inside the trousers and shoes in the idle pose and with the head turned', async () => {
    const model = await dressed(style);
    expect(fitReport(model, ['Trousers', 'Shoes'], ['idle', 'head left', 'head right'])).toEqual(
      [],
    );
  }, 120_000);

  it('keeps the skin within 2 mm inside the whole outfit in the idle pose and with the head turned', async () => {
    const model = await dressed(style);
    expect(
      fitReport(model, ['Clothing', 'Trousers', 'Shoes'], ['idle', 'head left', 'head right']),
    ).toEqual([]);
  }, 120_000);

  // The upload's female body (body_1): its armpits fold differently from body_0's.
  // Known defect: the hoodie still shows 2 vertices (28 mm under the front of the right
  // armpit, 22 mm at the right of the collar's front), so it is checked as failing.
  (style === 'hoodie' ? it.fails : it)(
    'keeps the skin within 2 mm inside the whole outfit on the female body in the idle pose and with the head turned',
    async () => {
      const model = await dressed(style, 'body_1');
      expect(
        fitReport(model, ['Clothing', 'Trousers', 'Shoes'], ['idle', 'head left', 'head right']),
      ).toEqual([]);
    },
    120_000,
  );

  // Known defect: in a stride (person-a) 1–9 body vertices per top and pose still come out
  // by more than 2 mm, the worst by 14–50 mm: under and in front of the armpits, where the
  // swinging arm presses into the chest (50 mm for the shirt), and between the
  // thighs and under the buttocks through the trousers (up to 22 mm).
  // Vitest reports this test when it starts to pass, so it cannot silently stay marked.
  it.fails(
    'keeps the skin inside the whole outfit in a stride (fails where the skin folds)',
    async () => {
      const model = await dressed(style);
      expect(
        fitReport(model, ['Clothing', 'Trousers', 'Shoes'], ['walk', 'walk, other foot']),
      ).toEqual([]);
    },
    120_000,
  );
});

describe('the T-shirt', () => {
  it('has a crew neck: the front of the neck bare, the tops of the shoulders covered', async () => {
    const model = await dressed('tshirt');
    const body = mesh(model, 'Body');
    const covered = new Set(coveredVertices(model, ['Clothing']).map((c) => c.vertex));
    const neckBase = joint(model, 'Neck');
    // The top of the skin over each trapezius, most of the way from the neck to the shoulder joint.
    const shoulder = Math.abs(joint(model, 'LeftArm')[0]);
    for (const side of [1, -1]) {
      let top = -1;
      for (let v = 0; v < body.positions.length / 3; v++) {
        const [x, y, z] = at(body, v);
        if (Math.abs(x - side * 0.85 * shoulder) > 0.01 || Math.abs(z - neckBase[2]) > 0.02)
          continue;
        if (top < 0 || y > at(body, top)[1]) top = v;
      }
      expect(top).toBeGreaterThanOrEqual(0);
      expect(covered.has(top), `shoulder top at ${at(body, top).join()}`).toBe(true);
    }
    // The front of the neck just above its base: the neckline runs below it.
    let front = -1;
    for (let v = 0; v < body.positions.length / 3; v++) {
      const [x, y, z] = at(body, v);
      if (Math.abs(x) > 0.01 || Math.abs(y - neckBase[1] - 0.03) > 0.01) continue;
      if (front < 0 || z > at(body, front)[2]) front = v;
    }
    expect(front).toBeGreaterThanOrEqual(0);
    const cloth = mesh(model, 'Clothing');
    let clear = Infinity;
    for (let v = 0; v < cloth.positions.length / 3; v++) {
      clear = Math.min(clear, Math.hypot(...sub(at(cloth, v), at(body, front))));
    }
    expect(clear, 'cloth from the front of the neck').toBeGreaterThan(0.015);
  }, 120_000);
});
