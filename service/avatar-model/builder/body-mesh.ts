import { smoothArmpitWeights } from './armpit-weights.js';
import { bodyField, type BodyField } from './body-field.js';
import type { BodyPlan } from './body-plan.js';
import { wristJoint } from './body-skeleton.js';
import { boundaryLoops, facesOutward, zipLoops } from './body-stitch.js';
import { axisSamples, surfaceNets, type NetMesh } from './body-surface-nets.js';
import { MeshBuilder } from './mesh-builder.js';
import { THIGH_GAP, type Proportions } from './proportions.js';
import type { Skeleton } from './skeleton.js';
import { boneSegments, boneShares, setNormalised, type BoneSegment } from './skin-weights.js';
import { tubeField } from './body-field.js';
import type { Vec3 } from './vec3.js';

/** Where a body vertex lies: on which of the plan's tubes, and how far along it (0..1). */
export interface BodyRegion {
  tube: string;
  along: number;
}

/** Whether a body vertex lies on an arm's tube (the hand's is its own). */
export function onArm(region: BodyRegion): boolean {
  return region.tube === 'leftArm' || region.tube === 'rightArm';
}

export interface BodySurface {
  mesh: MeshBuilder;
  /** Per vertex of `mesh`. */
  regions: BodyRegion[];
  /** The implicit surface `mesh` was polygonised from. */
  field: BodyField;
}

/** Grid steps as fractions of stature: the trunk and limbs, and the hands (fine enough for fingers). */
const BODY_STEP = 0.0085;
const HAND_STEP = 0.0031;
/** Grid margin around the body, in steps. */
const PAD = 3;

/**
 * The body's one skin, from the neck (which runs up inside the head) to the
 * toes and fingertips: the plan's implicit surface polygonised on a coarse
 * grid for the trunk and limbs and a fine one for each hand, the grids
 * meeting on a plane across the forearm where the two meshes are zipped
 * together. The result is one closed, connected surface.
 */
export function bodySurface(plan: BodyPlan, p: Proportions, skeleton: Skeleton): BodySurface {
  const field = bodyField(plan);
  const at = (q: Vec3) => field.at(q);
  const step = BODY_STEP * p.stature;
  const fine = HAND_STEP * p.stature;
  // Across the forearm, a little before the palm and thumb begin. At 0.28 of it the fine grid
  // spent about 1,000 triangles on the forearm of the heaviest body, and the heaviest
  // customization broke the 70k budget.
  const cut = wristJoint(p, 1)[0] - 0.18 * p.foreArm;
  const box = bounds(field);

  const torsoHalf = p.shoulderHalfWidth + 0.06;
  // Finer across the middle, so that samples fall in the gap between the thighs: with one
  // cell spanning it, the surface was bridged from thigh to thigh, and the bridge stretched
  // into a web between the legs in a stride.
  const xs = axisSamples(-cut, cut, (x) =>
    Math.abs(x) < THIGH_GAP
      ? Math.min(step, THIGH_GAP / 2.5)
      : Math.abs(x) < torsoHalf
        ? step
        : 1.5 * step,
  );
  const dense = (y: number) =>
    y < p.ankleY + 0.06 || (y > p.armpitY - 0.08 && y < p.shoulderY + 0.1);
  const ys = axisSamples(box.min[1] - PAD * step, box.max[1] + PAD * step, (y) =>
    dense(y) ? step : 1.4 * step,
  );
  // On whole steps from z = 0, so that where the surface stays put its samples do too: from
  // the box's own front, a change to the shoulders moved every vertex down to the toes.
  const zs = axisSamples(
    Math.floor(box.min[2] / step - PAD) * step,
    Math.ceil(box.max[2] / step + PAD) * step,
    () => step,
  );
  const parts: NetMesh[] = [surfaceNets(xs, ys, zs, at)];

  for (const side of [1, -1] as const) {
    const hand = handBounds(field, plan, side);
    const range = (i: 0 | 1 | 2) =>
      axisSamples(hand.min[i] - PAD * fine, hand.max[i] + PAD * fine, () => fine);
    const outer = side * (Math.max(Math.abs(hand.min[0]), Math.abs(hand.max[0])) + PAD * fine);
    const hx =
      side === 1 ? axisSamples(cut, outer, () => fine) : axisSamples(outer, -cut, () => fine);
    parts.push(surfaceNets(hx, range(1), range(2), at));
  }
  const mesh = joinParts(parts);
  const regions = regionsOf(field, mesh);
  skinBody(mesh, field, skeleton);
  smoothArmpitWeights(mesh, skeleton, p);
  return { mesh, regions, field };
}

function bounds(field: BodyField): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const t of field.tubes) {
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i]!, t.min[i]!);
      max[i] = Math.max(max[i]!, t.max[i]!);
    }
  }
  return { min, max };
}

/** The box of one hand: its palm and fingers, and the end of the forearm. */
function handBounds(field: BodyField, plan: BodyPlan, side: 1 | -1): { min: Vec3; max: Vec3 } {
  const k = side === 1 ? 0 : 1;
  const specs = new Set([plan.palms[k], plan.arms[k], ...plan.fingers[k]]);
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const t of field.tubes) {
    if (!specs.has(t.spec)) continue;
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i]!, t.min[i]!);
      max[i] = Math.max(max[i]!, t.max[i]!);
    }
  }
  return { min, max };
}

/** The trunk and the hands as one mesh, their open ends across the forearms zipped shut. */
function joinParts(parts: readonly NetMesh[]): MeshBuilder {
  const mesh = new MeshBuilder();
  for (const part of parts) {
    const first = mesh.vertexCount;
    for (let v = 0; v < part.positions.length; v += 3) {
      const q: Vec3 = [part.positions[v]!, part.positions[v + 1]!, part.positions[v + 2]!];
      mesh.vertex(q, skinUv(q));
    }
    for (let t = 0; t < part.indices.length; t += 3) {
      mesh.triangle(
        first + part.indices[t]!,
        first + part.indices[t + 1]!,
        first + part.indices[t + 2]!,
      );
    }
  }
  const position = (v: number) => mesh.position(v);
  const loops = boundaryLoops(mesh.indices);
  const centre = (loop: readonly number[]) => {
    const c: Vec3 = [0, 0, 0];
    for (const v of loop) for (let i = 0; i < 3; i++) c[i]! += position(v)[i]! / loop.length;
    return c;
  };
  const used = new Set<number>();
  for (let i = 0; i < loops.length; i++) {
    if (used.has(i)) continue;
    let best = -1;
    let bestDistance = Infinity;
    for (let j = i + 1; j < loops.length; j++) {
      if (used.has(j)) continue;
      const a = centre(loops[i]!);
      const b = centre(loops[j]!);
      const d = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      if (d < bestDistance) {
        bestDistance = d;
        best = j;
      }
    }
    if (best < 0) throw new Error('the body surface has an open edge with nothing to join');
    used.add(i).add(best);
    const strip = zipLoops(loops[i]!, loops[best]!, position);
    const outward = facesOutward(strip, loops[i]!, loops[best]!, position);
    for (let t = 0; t < strip.length; t += 3) {
      if (outward) mesh.triangle(strip[t]!, strip[t + 1]!, strip[t + 2]!);
      else mesh.triangle(strip[t]!, strip[t + 2]!, strip[t + 1]!);
    }
  }
  return mesh;
}

/**
 * The skin texture is a fine tiling grain, so the texture coordinates can be
 * a fixed linear map of the position: continuous everywhere, with no seam to
 * split vertices at, about three tiles a metre.
 */
export function skinUv(p: Vec3): [number, number] {
  return [3 * (p[0] + 0.55 * p[2]), 3 * (p[1] - 0.45 * p[2])];
}

function regionsOf(field: BodyField, mesh: MeshBuilder): BodyRegion[] {
  const own = new Float64Array(field.tubes.length);
  const regions: BodyRegion[] = [];
  for (let v = 0; v < mesh.vertexCount; v++) {
    const p = mesh.position(v);
    field.perTube(p, own, true);
    let best = 0;
    for (let i = 1; i < own.length; i++) if (own[i]! < own[best]!) best = i;
    const tube = field.tubes[best]!;
    regions.push({ tube: tube.spec.name, along: tubeField(tube, p).t });
  }
  return regions;
}

/** How far (m) from a tube's surface a vertex still takes some of that tube's weights. */
const MEMBERSHIP = 0.012;

/**
 * Each tube weights the skin by distance to its own bones (the torso to the
 * spine, neck, clavicles and thighs, never the upper arms); a vertex blends the
 * weights of the tube it lies on with those of the tubes joined to it (its
 * parent and children) by how near it is to each, so the weights run on
 * smoothly where the tubes were joined. Not with a sibling's: the thighs and
 * the fingers only touch, and the inner thigh that took a share of the other
 * leg's weights across the gap was drawn into that leg in a stride.
 */
function skinBody(mesh: MeshBuilder, field: BodyField, skeleton: Skeleton): void {
  const segments: BoneSegment[][] = field.tubes.map((t) => boneSegments(skeleton, t.spec.bones));
  const own = new Float64Array(field.tubes.length);
  const joined = (a: number, b: number) =>
    a === b || field.tubes[a]!.parent === b || field.tubes[b]!.parent === a;
  for (let v = 0; v < mesh.vertexCount; v++) {
    const p = mesh.position(v);
    field.perTube(p, own, true);
    let nearest = 0;
    for (let i = 1; i < own.length; i++) if (own[i]! < own[nearest]!) nearest = i;
    const total = new Map<number, number>();
    for (let i = 0; i < own.length; i++) {
      if (!joined(i, nearest)) continue;
      const gap = own[i]! - own[nearest]!;
      if (gap > 3 * MEMBERSHIP) continue;
      const member = Math.exp(-((gap / MEMBERSHIP) ** 2));
      const shares = boneShares(p, segments[i]!, field.tubes[i]!.spec.falloff);
      const sum = shares.reduce((s, r) => s + r.w, 0);
      for (const r of shares) total.set(r.joint, (total.get(r.joint) ?? 0) + (member * r.w) / sum);
    }
    const ranked = [...total]
      .map(([joint, w]) => ({ joint, w }))
      .sort((a, b) => b.w - a.w)
      .slice(0, 4);
    setNormalised(mesh, v, ranked);
  }
}
