import type { BoneName } from './skeleton.js';
import type { MeshBuilder } from './mesh-builder.js';
import { MonotoneSpline } from './monotone-spline.js';
import { addScaled, cross, normalize, scale, sub, dot, type Vec3 } from './vec3.js';

/** One cross-section of a tube: an ellipse (or superellipse) around `centre`. */
export interface Section {
  /** Names a place on the body (waist, elbow…) so garments can start and end there. */
  label?: string;
  centre: Vec3;
  /** Half extents along the tube's u axis and along v = direction × u. */
  halfU: number;
  halfV: number;
}

/** A limb, the torso or a garment piece: a smooth tube through its sections. */
export interface TubeSpec {
  name: string;
  /** Roughly where the tube runs; the cross-sections are perpendicular to it. */
  direction: Vec3;
  /** First cross-section axis; made perpendicular to `direction`. */
  u: Vec3;
  sections: Section[];
  /** Vertices around each ring. */
  segments: number;
  /** Rings along the whole tube. */
  rings: number;
  /** 2 is an ellipse; larger is boxier. */
  exponent: number;
  capStart: boolean;
  capEnd: boolean;
  /**
   * How deep the body's surface rounds off past the first section, as a share
   * of that section's lesser half extent (1 unless given).
   */
  startRounding?: number;
  /** Bones that may move this tube's skin. */
  bones: readonly BoneName[];
  /** Distance (m) over which influence fades from one bone to the next. */
  falloff: number;
}

/** What most tubes share: elliptical sections, closed at both ends. */
export const TUBE_DEFAULTS = {
  exponent: 2,
  capStart: true,
  capEnd: true,
} as const satisfies Partial<TubeSpec>;

export interface TubeOptions {
  /** Added to both half extents: garments are the body's tubes, inflated. */
  inflate?: number;
  /** Keeps only this part of the tube, as fractions 0..1 of its profile length. */
  from?: number;
  to?: number;
  capStart?: boolean;
  capEnd?: boolean;
  /** Overrides the ring count (garment pieces are shorter). */
  rings?: number;
}

/**
 * Parameter along a tube that grows with both distance and change of girth,
 * so rings crowd where the shape turns (the slope from shoulder to neck)
 * instead of spreading evenly in height.
 */
export function profileLengths(sections: readonly Section[]): number[] {
  const out = [0];
  for (let i = 1; i < sections.length; i++) {
    const a = sections[i - 1]!;
    const b = sections[i]!;
    const step = Math.hypot(
      b.centre[0] - a.centre[0],
      b.centre[1] - a.centre[1],
      b.centre[2] - a.centre[2],
      b.halfU - a.halfU,
      b.halfV - a.halfV,
    );
    out.push(out[i - 1]! + Math.max(step, 1e-6));
  }
  return out;
}

function superellipse(angle: number, exponent: number): [number, number] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const p = 2 / exponent;
  return [Math.sign(c) * Math.pow(Math.abs(c), p), Math.sign(s) * Math.pow(Math.abs(s), p)];
}

/**
 * Appends the tube to `mesh` and returns the index of its first vertex.
 * Rings run along `direction` and around from u towards v = direction × u,
 * which makes the quads counter-clockwise seen from outside. Texture
 * coordinates run around (u, 0..1) and along the whole tube's profile (v, 0..1).
 */
export function appendTube(mesh: MeshBuilder, spec: TubeSpec, options: TubeOptions = {}): number {
  const first = mesh.vertexCount;
  const d = normalize(spec.direction);
  const u = normalize(sub(spec.u, scale(d, dot(spec.u, d))));
  const v3 = cross(d, u);
  const lengths = profileLengths(spec.sections);
  const total = lengths[lengths.length - 1]!;
  const channel = (f: (s: Section) => number) =>
    new MonotoneSpline(
      lengths,
      spec.sections.map((s) => f(s)),
    );
  const cx = channel((s) => s.centre[0]);
  const cy = channel((s) => s.centre[1]);
  const cz = channel((s) => s.centre[2]);
  const hu = channel((s) => s.halfU);
  const hv = channel((s) => s.halfV);
  const inflate = options.inflate ?? 0;
  const from = (options.from ?? 0) * total;
  const to = (options.to ?? 1) * total;
  const rings = Math.max(2, options.rings ?? Math.round(spec.rings * ((to - from) / total)));
  const n = spec.segments;
  const profile = Array.from({ length: n }, (_, j) =>
    superellipse((2 * Math.PI * j) / n, spec.exponent),
  );

  // Each ring repeats its first vertex at u = 1, so the texture wraps without a smeared seam.
  const ringCentres: Vec3[] = [];
  const ringRadii: number[] = [];
  for (let k = 0; k < rings; k++) {
    const x = from + ((to - from) * k) / (rings - 1);
    const centre: Vec3 = [cx.at(x), cy.at(x), cz.at(x)];
    const a = hu.at(x) + inflate;
    const b = hv.at(x) + inflate;
    ringCentres.push(centre);
    ringRadii.push(Math.min(a, b));
    const v = x / total;
    for (let j = 0; j <= n; j++) {
      const [pu, pv] = profile[j % n]!;
      mesh.vertex(addScaled(addScaled(centre, u, a * pu), v3, b * pv), [j / n, v]);
    }
  }
  const at = (k: number, j: number) => first + k * (n + 1) + j;
  for (let k = 0; k < rings - 1; k++) {
    for (let j = 0; j < n; j++) mesh.quad(at(k, j), at(k, j + 1), at(k + 1, j + 1), at(k + 1, j));
  }
  // Caps bulge a little so the tube ends round rather than flat.
  if (options.capStart ?? spec.capStart) {
    const c = mesh.vertex(addScaled(ringCentres[0]!, d, -0.5 * ringRadii[0]!), [0.5, from / total]);
    for (let j = 0; j < n; j++) mesh.triangle(c, at(0, j + 1), at(0, j));
  }
  if (options.capEnd ?? spec.capEnd) {
    const last = rings - 1;
    const c = mesh.vertex(addScaled(ringCentres[last]!, d, 0.5 * ringRadii[last]!), [
      0.5,
      to / total,
    ]);
    for (let j = 0; j < n; j++) mesh.triangle(c, at(last, j), at(last, j + 1));
  }
  return first;
}
