import { describe, expect, it } from 'vitest';
import type { AvatarMesh, AvatarModel } from '../../model.js';
import { IDLE_POSE, walkPose } from '../animations/clips.js';
import { posedModel, resolvePose, type PoseSpec } from '../animations/pose.js';
import { build, joint, mesh, rayHits, styleId, vertexAt } from '../test-support.js';
import { closestOnTriangle } from '../neck-join.js';
import { cross, dot, normalize, sub, type Vec3 } from '../vec3.js';
import { parseHexColour } from '../colour.js';
import { FOOTWEAR_STYLES, upperColour } from '../assets/footwear.js';
import { TROUSER_COLOURS } from '../assets/clothing.js';

/** How far the skin may come out through a shoe. */
const TOLERANCE = 0.002;
/** Skin this far below a shoe's top edge is inside the shoe. */
const BELOW_COLLAR = 0.012;

const at = vertexAt;

/**
 * Where p lies against a surface: along the normal of the triangle with the
 * nearest point, how far it is from that point (positive outside).
 */
function signedDistance(p: Vec3, surface: readonly [Vec3, Vec3, Vec3][]): number {
  let best = Infinity;
  let signed = 0;
  for (const [a, b, c] of surface) {
    const [wa, wb, wc] = closestOnTriangle(p, a, b, c);
    const q: Vec3 = [0, 1, 2].map((k) => wa * a[k]! + wb * b[k]! + wc * c[k]!) as Vec3;
    const d = Math.hypot(...sub(p, q));
    if (d < best) {
      best = d;
      signed = dot(sub(p, q), normalize(cross(sub(b, a), sub(c, a))));
    }
  }
  return signed;
}

/**
 * How far p lies outside the shoe: its distance from the nearest point of the
 * shoe's surface when it is on the outer side of the triangle there, else 0.
 * Unlike a check that only asks whether some layer lies over the skin, this
 * sees skin coming out through a shoe's inner side at the ankle bones.
 */
function outside(p: Vec3, shoe: readonly [Vec3, Vec3, Vec3][]): number {
  return Math.max(0, signedDistance(p, shoe));
}

function triangles(m: AvatarMesh): [Vec3, Vec3, Vec3][] {
  const list: [Vec3, Vec3, Vec3][] = [];
  for (let t = 0; t < m.indices.length; t += 3) {
    list.push([at(m, m.indices[t]!), at(m, m.indices[t + 1]!), at(m, m.indices[t + 2]!)]);
  }
  return list;
}

/** Body vertices inside the shoes in the T-pose: below the shoes' top edge by a margin. */
function shodVertices(model: AvatarModel): number[] {
  const body = mesh(model, 'Body');
  const shoe = mesh(model, 'Shoes');
  let collar = 0;
  for (let v = 0; v < shoe.positions.length / 3; v++) collar = Math.max(collar, at(shoe, v)[1]);
  const inside: number[] = [];
  for (let v = 0; v < body.positions.length / 3; v++) {
    if (at(body, v)[1] < collar - BELOW_COLLAR) inside.push(v);
  }
  return inside;
}

const POSES: Record<string, PoseSpec> = {
  'T-pose': { turns: [] },
  idle: IDLE_POSE,
  walk: walkPose(1),
};

/** person-b in a T-shirt and shoes of this style. */
const wearing = (style: string) =>
  build('person-b', {
    assets: {
      clothing: { id: styleId('tshirt') },
      hair_and_headwear: null,
      eyewear: null,
      footwear: { id: styleId(style) },
    },
  });

describe.each(['sneakers', 'boots', 'loafers'])('%s', (style) => {
  // Sized from the foot's plan, the sole was no wider than the upper round the ball, and the
  // top corner of its wall was sunk with its top wherever the skin was near: seen from the
  // side, the upper came down over it, and of a 24 mm sneaker sole a line of 5–10 mm showed.
  it("show their sole's wall from the side, from the heel to the toes", async () => {
    const model = await wearing(style);
    const [upper, sole] = ['Shoes', 'ShoeSoles'].map((n) => mesh(model, n));
    let top = 0;
    for (let v = 0; v < sole!.positions.length / 3; v++) top = Math.max(top, at(sole!, v)[1]);
    const [fx, , fz] = joint(model, 'LeftFoot');
    const [, , tz] = joint(model, 'LeftToeBase');
    const hidden: string[] = [];
    for (const side of [1, -1]) {
      for (let z = fz - 0.03; z <= tz + 0.04; z += 0.01) {
        for (const share of [0.25, 0.5, 0.75]) {
          const from: Vec3 = [fx + side * 0.5, share * top, z];
          const toward: Vec3 = [-side, 0, 0];
          const [onSole] = rayHits(sole!, from, toward);
          const [onUpper] = rayHits(upper!, from, toward);
          if (onSole === undefined || (onUpper !== undefined && onUpper < onSole)) {
            hidden.push(`${side > 0 ? 'outer' : 'inner'} side, ${share} up, z ${z.toFixed(2)}`);
          }
        }
      }
    }
    expect(hidden).toEqual([]);
  });
  it('keep the feet and ankles inside them in the T-pose, idle and walking', async () => {
    const model = await wearing(style);
    const shod = shodVertices(model);
    expect(shod.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let worstAsOne = 0;
    for (const [name, spec] of Object.entries(POSES)) {
      const posed = posedModel(model, resolvePose(model.joints, spec));
      const body = mesh(posed, 'Body');
      // Inside either the upper or the sole is inside the shoe.
      const layers = ['Shoes', 'ShoeSoles'].map((n) => triangles(mesh(posed, n)));
      const out = shod.map((v) => Math.min(...layers.map((l) => outside(at(body, v), l))));
      const through = out.filter((d) => d > TOLERANCE);
      if (through.length > 0) {
        const worst = Math.max(...through);
        const where = at(mesh(model, 'Body'), shod[out.indexOf(worst)]!).map((x) => x.toFixed(3));
        failures.push(
          `${name}: ${through.length} out, worst ${(worst * 1000).toFixed(1)} mm at ${where}`,
        );
      }
      // The upper and sole as one surface, as a tool that cannot tell them apart sees
      // them: a sole's top across the inside of the shoe would be the surface nearest
      // the foot's lower edge, with the skin above it (4–13 % of the shod skin did so).
      const shoe = layers.flat();
      const asOne = shod.filter((v) => outside(at(body, v), shoe) > TOLERANCE).length;
      worstAsOne = Math.max(worstAsOne, asOne / shod.length);
    }
    // Known defect: a few toe, heel and side vertices still lie nearer the slope inside the
    // sole's rim than the upper: 0.2–3.6 % of the shod skin, in every pose alike. Which ones
    // depends on where the body's grid samples the foot (0–2.6 % before it was laid on
    // whole steps from z = 0).
    expect(worstAsOne).toBeLessThan(0.04);
    expect(failures).toEqual([]);
  }, 120_000);
});

/** The triangles of a mesh with a corner inside a box: only they can meet a ray through it. */
function within(m: AvatarMesh, low: Vec3, high: Vec3): AvatarMesh {
  const inBox = (v: number) => at(m, v).every((c, k) => c >= low[k]! && c <= high[k]!);
  const kept: number[] = [];
  for (let t = 0; t < m.indices.length; t += 3) {
    const corners = [m.indices[t]!, m.indices[t + 1]!, m.indices[t + 2]!];
    if (corners.some(inBox)) kept.push(...corners);
  }
  return { ...m, indices: Uint32Array.from(kept) };
}

describe.each(FOOTWEAR_STYLES)('%s, seen from below', (style) => {
  // The skin under the foot lay 0.6 mm below the sole's underside, and the upper's floor 4 mm
  // above it: from below, as a lifted foot in a stride shows it, the sole was blotched with
  // skin.
  it('show the sole, not the skin, in the T-pose, idle and walking', async () => {
    const model = await wearing(style);
    const shown: string[] = [];
    for (const [name, spec] of Object.entries(POSES)) {
      const posed = posedModel(model, resolvePose(model.joints, spec));
      const sole = mesh(posed, 'ShoeSoles');
      const low: Vec3 = [Infinity, Infinity, Infinity];
      const high: Vec3 = [-Infinity, -Infinity, -Infinity];
      for (let v = 0; v < sole.positions.length / 3; v++)
        at(sole, v).forEach((c, k) => {
          low[k] = Math.min(low[k]!, c);
          high[k] = Math.max(high[k]!, c);
        });
      const skin = within(mesh(posed, 'Body'), low, [high[0], high[1] + 0.02, high[2]]);
      let seen = 0;
      for (let x = low[0]; x <= high[0]; x += 0.006)
        for (let z = low[2]; z <= high[2]; z += 0.006) {
          const from: Vec3 = [x, low[1] - 0.05, z];
          const [onSole] = rayHits(sole, from, [0, 1, 0]);
          if (onSole === undefined) continue;
          seen++;
          const [onSkin] = rayHits(skin, from, [0, 1, 0]);
          if (onSkin !== undefined && onSkin < onSole + 0.0005)
            shown.push(`${name} at ${x.toFixed(3)}, ${z.toFixed(3)}`);
        }
      expect(seen, name).toBeGreaterThan(300);
    }
    expect(shown.length, shown.slice(0, 5).join('; ')).toBe(0);
  }, 120_000);
});

/** How many separate pieces (connected by triangles) a mesh is made of. */
function pieces(m: AvatarMesh): number {
  const parent = Array.from({ length: m.positions.length / 3 }, (_, v) => v);
  const find = (v: number): number => (parent[v] === v ? v : (parent[v] = find(parent[v]!)));
  for (let i = 0; i < m.indices.length; i += 3)
    for (let k = 1; k < 3; k++) parent[find(m.indices[i + k]!)] = find(m.indices[i]!);
  return new Set(parent.map((_, v) => find(v))).size;
}

// A laced shoe without laces read as a slipper.
describe.each(['sneakers', 'boots'])('%s', (style) => {
  it('have laces lying on the instep in the T-pose, idle and walking', async () => {
    const model = await wearing(style);
    const laces = mesh(model, 'ShoeLaces');
    // Criss-cross on each shoe: a run across the lowest and the top pair of eyelets and two
    // crossing runs between each two of the four pairs, each a closed tube of its own. (Five
    // straight bars read as a ladder.)
    expect(pieces(laces)).toBe(2 * (2 + 2 * 3));
    const ankle = joint(model, 'LeftFoot');
    for (const [name, spec] of Object.entries(POSES)) {
      const posed = posedModel(model, resolvePose(model.joints, spec));
      const upper = triangles(mesh(posed, 'Shoes'));
      const lace = mesh(posed, 'ShoeLaces');
      const distances = Array.from({ length: lace.positions.length / 3 }, (_, v) =>
        signedDistance(at(lace, v), upper),
      );
      // The lace's axis lies 1.2 mm above the upper, its half thickness 1.2 mm; where two
      // cross, the one on top is lifted by a lace's thickness.
      expect(Math.max(...distances.map(Math.abs)), name).toBeLessThan(0.0055);
      expect(distances.reduce((s, d) => s + d, 0) / distances.length, name).toBeGreaterThan(0.0008);
    }
    // On the instep: in front of the ankle, above the sole.
    const rest = mesh(model, 'ShoeLaces');
    for (let v = 0; v < rest.positions.length / 3; v++) {
      const [, y, z] = at(rest, v);
      expect(z).toBeGreaterThan(ankle[2] + 0.02);
      expect(y).toBeGreaterThan(0.03);
    }
  }, 120_000);
});

// The upper took the body's texture coordinates, which tile about three times a metre and, across
// the foot's slopes, as little as once: the canvas's grain stretched into streaks and blotches
// 1–2 cm across (a 5th percentile of 1.1 tiles a metre along the upper's edges).
it.each(FOOTWEAR_STYLES)('%s wear their grain at its own size', async (style) => {
  const upper = mesh(await wearing(style), 'Shoes');
  const uvs = upper.uvs;
  if (!uvs) throw new Error('the upper has no texture coordinates');
  const tilesPerMetre: number[] = [];
  for (let t = 0; t < upper.indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = upper.indices[t + k]!;
      const b = upper.indices[t + ((k + 1) % 3)]!;
      const length = Math.hypot(...sub(at(upper, a), at(upper, b)));
      const uv = Math.hypot(uvs[2 * a]! - uvs[2 * b]!, uvs[2 * a + 1]! - uvs[2 * b + 1]!);
      if (length > 1e-4) tilesPerMetre.push(uv / length);
    }
  }
  tilesPerMetre.sort((a, b) => a - b);
  expect(tilesPerMetre[Math.floor(0.05 * tilesPerMetre.length)]).toBeGreaterThan(2.5);
});

describe('the shoes against the trousers', () => {
  // The sneakers' navy canvas merged with the T-shirt outfit's blue jeans: in a full-body
  // picture the legs ran down into the floor.
  it.each(FOOTWEAR_STYLES)("%s stand out from every outfit's trousers", (style) => {
    const shoe = parseHexColour(upperColour(style)).rgb;
    for (const [outfit, trousers] of Object.entries(TROUSER_COLOURS)) {
      const t = parseHexColour(trousers).rgb;
      const apart = Math.hypot(shoe[0]! - t[0]!, shoe[1]! - t[1]!, shoe[2]! - t[2]!);
      expect(apart, outfit).toBeGreaterThan(0.15);
    }
  });
});
