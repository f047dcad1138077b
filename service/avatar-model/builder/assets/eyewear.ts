import type { AvatarMaterial } from '../../model.js';
import {
  BROW_AND_CHEEK,
  LANDMARK,
  LEFT_EYE_CONTOUR,
  RIGHT_EYE_CONTOUR,
} from '../face-landmarks.js';
import type { HeadFrame } from '../head-builder.js';
import { hexMaterial } from '../materials.js';
import { MeshBuilder } from '../mesh-builder.js';
import type { Part } from '../part.js';
import { skinRigid } from '../skin-weights.js';
import { appendTube } from '../tube.js';
import { add, cross, normalize, scale, smoothstep, sub, type Vec3 } from '../vec3.js';

export const EYEWEAR_STYLES = ['round', 'aviator', 'rectangular'] as const;
export type EyewearStyle = (typeof EYEWEAR_STYLES)[number];

interface FrameStyle {
  /** Lens width and height per metre of distance between the eye centres. */
  width: number;
  height: number;
  /** Lens outline on the unit square (x outward from the nose, y up), counter-clockwise. */
  outline: (t: number) => [number, number];
  rimRadius: number;
  rimColour: string;
  metallic: number;
  /** A second bar above the bridge, as aviators have. */
  topBar: boolean;
}

const STYLES: Readonly<Record<EyewearStyle, FrameStyle>> = {
  round: {
    width: 0.72,
    height: 0.72,
    outline: (t) => [Math.cos(2 * Math.PI * t), Math.sin(2 * Math.PI * t)],
    rimRadius: 0.0012,
    rimColour: '#3a3a3a',
    metallic: 0.8,
    topBar: false,
  },
  aviator: {
    width: 0.86,
    height: 0.78,
    // A teardrop: full at the outer bottom, flat along the top.
    outline: (t) => {
      const a = 2 * Math.PI * t;
      const x = Math.cos(a);
      const y = Math.sin(a);
      return [
        x * (1 + 0.12 * Math.max(0, -y)) + 0.08 * Math.max(0, -y),
        y > 0 ? 0.82 * y : y * (1 + 0.1 * x),
      ];
    },
    rimRadius: 0.0011,
    rimColour: '#c9a54a',
    metallic: 1,
    topBar: true,
  },
  rectangular: {
    width: 0.84,
    height: 0.56,
    // A rounded rectangle: a superellipse with a high exponent.
    outline: (t) => {
      const a = 2 * Math.PI * t;
      const p = 2 / 7;
      return [
        Math.sign(Math.cos(a)) * Math.abs(Math.cos(a)) ** p,
        Math.sign(Math.sin(a)) * Math.abs(Math.sin(a)) ** p,
      ];
    },
    rimRadius: 0.0028,
    rimColour: '#141414',
    metallic: 0,
    topBar: false,
  },
};

const OUTLINE_POINTS = 40;
/** Lenses sit this far in front of the brows, cheekbones and eyes. */
const CLEARANCE = 0.009;

/**
 * Glasses placed on the face's landmarks: a lens in front of each eye, held
 * clear of brows and cheeks, a bridge over the nose and temples back to the
 * ears, kept just outside the head's surface.
 */
export function buildEyewear(
  style: EyewearStyle,
  frame: HeadFrame,
  lensMaterial: AvatarMaterial,
): Part[] {
  const spec = STYLES[style];
  const pts = frame.points;
  const [rightEye, leftEye] = frame.eyes as [HeadFrame['eyes'][number], HeadFrame['eyes'][number]];
  const spacing = leftEye.centre[0] - rightEye.centre[0];
  const halfW = (spec.width * spacing) / 2;
  const halfH = (spec.height * spacing) / 2;
  const front =
    Math.max(
      ...[...RIGHT_EYE_CONTOUR, ...LEFT_EYE_CONTOUR, ...BROW_AND_CHEEK].map((i) => pts[i]![2]),
    ) + CLEARANCE;
  const eyeY = (rightEye.centre[1] + leftEye.centre[1]) / 2;

  const rims = new MeshBuilder();
  const lenses = new MeshBuilder();
  const lensEdges: Vec3[][] = [];
  for (const [eye, side] of [
    [rightEye, -1],
    [leftEye, 1],
  ] as const) {
    // Lenses wrap slightly round the face: the outer edge sits further back.
    const outline = Array.from({ length: OUTLINE_POINTS }, (_, k): Vec3 => {
      const [ux, uy] = spec.outline(k / OUTLINE_POINTS);
      const x = eye.centre[0] + side * ux * halfW + side * 0.08 * halfW;
      return [x, eyeY + uy * halfH, front - 0.006 * Math.max(0, ux)];
    });
    lensEdges.push(outline);
    appendLoop(rims, outline, spec.rimRadius);
    appendLens(lenses, outline, side);
  }
  const [rightEdge, leftEdge] = lensEdges as [Vec3[], Vec3[]];
  // Index 0 of an outline is its outermost point; the inner point is half way round.
  const nearNose = (edge: Vec3[]) => edge[OUTLINE_POINTS / 2]!;
  const bridgeZ = Math.max(pts[LANDMARK.noseBridge]![2] + 0.006, nearNose(rightEdge)[2]);
  const bridgeTop = eyeY + halfH * 0.35;
  appendBar(
    rims,
    [nearNose(rightEdge), [0, bridgeTop + 0.004, bridgeZ], nearNose(leftEdge)],
    spec.rimRadius * 1.1,
  );
  if (spec.topBar) {
    const top = (edge: Vec3[]) => edge[Math.round(OUTLINE_POINTS * 0.3)]!;
    appendBar(
      rims,
      [top(rightEdge), [0, eyeY + halfH * 0.95, bridgeZ + 0.002], top(leftEdge)],
      spec.rimRadius,
    );
  }
  for (const [outer, side] of [
    [rightEdge[0]!, -1],
    [leftEdge[0]!, 1],
  ] as const) {
    appendTemple(rims, frame, outer, side, spec.rimRadius);
  }
  skinRigid(rims, 0, 'Head');
  skinRigid(lenses, 0, 'Head');
  return [
    {
      name: 'GlassesFrame',
      mesh: rims,
      material: hexMaterial(`GlassesFrame_${style}`, spec.rimColour, {
        metallic: spec.metallic,
        roughness: spec.metallic > 0 ? 0.3 : 0.45,
      }),
    },
    { name: 'GlassesLenses', mesh: lenses, material: lensMaterial },
  ];
}

/** A thin closed tube along a loop of points. */
function appendLoop(mesh: MeshBuilder, loop: readonly Vec3[], radius: number): void {
  const around = 6;
  const n = loop.length;
  const first = mesh.vertexCount;
  for (let k = 0; k < n; k++) {
    const prev = loop[(k + n - 1) % n]!;
    const next = loop[(k + 1) % n]!;
    const tangent = normalize(sub(next, prev));
    const side = normalize(cross(tangent, [0, 0, 1]));
    const up = cross(side, tangent);
    for (let j = 0; j < around; j++) {
      const a = (2 * Math.PI * j) / around;
      mesh.vertex(
        add(loop[k]!, add(scale(side, radius * Math.cos(a)), scale(up, radius * Math.sin(a)))),
      );
    }
  }
  const at = (k: number, j: number) => first + (k % n) * around + (j % around);
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < around; j++)
      mesh.quad(at(k, j), at(k + 1, j), at(k + 1, j + 1), at(k, j + 1));
  }
}

/** A thin tube through a few points, capped. */
function appendBar(mesh: MeshBuilder, points: readonly Vec3[], radius: number): void {
  const direction = sub(points[points.length - 1]!, points[0]!);
  appendTube(mesh, {
    name: 'bar',
    direction,
    u: Math.abs(direction[1]) > 0.9 * Math.hypot(...direction) ? [1, 0, 0] : [0, 1, 0],
    sections: points.map((centre) => ({ centre, halfU: radius, halfV: radius })),
    segments: 6,
    rings: 8,
    exponent: 2,
    capStart: true,
    capEnd: true,
    bones: ['Head'],
    falloff: 1,
  });
}

/** A temple from the lens's outer edge back to the ear, bending in to rest just outside the head. */
function appendTemple(
  mesh: MeshBuilder,
  frame: HeadFrame,
  start: Vec3,
  side: -1 | 1,
  radius: number,
): void {
  const map = frame.surface;
  const ear = frame.points[side > 0 ? LANDMARK.leftFaceEdge : LANDMARK.rightFaceEdge]!;
  const earZ = ear[2] - 0.035;
  const earX = map.centre[0] + side * (map.radius((side * Math.PI) / 2, 0) + radius + 0.002);
  const points: Vec3[] = [];
  const steps = 8;
  for (let k = 0; k <= steps; k++) {
    const t = k / steps;
    const bend = smoothstep(0.35, 1, t);
    const p: Vec3 = [
      start[0] + (earX - start[0]) * bend,
      start[1] + 0.002 * t,
      start[2] + (earZ - start[2]) * t,
    ];
    // Never inside the head: push outwards along x until the surface is cleared.
    for (let tries = 0; tries < 20 && k > 0; tries++) {
      const d = map.direction(p);
      const clear = map.radius(d.azimuth, d.elevation) + radius + 0.002;
      const reach = Math.hypot(p[0] - map.centre[0], p[1] - map.centre[1], p[2] - map.centre[2]);
      if (reach >= clear) break;
      p[0] += side * (clear - reach + 0.0005);
    }
    points.push(p);
  }
  appendBar(mesh, points, radius * 1.1);
}

/** A lens: a fan over the outline, facing forward. */
function appendLens(mesh: MeshBuilder, outline: readonly Vec3[], side: -1 | 1): void {
  const n = outline.length;
  const centre = scale(
    outline.reduce<Vec3>((s, p) => add(s, p), [0, 0, 0]),
    1 / n,
  );
  const c = mesh.vertex([centre[0], centre[1], centre[2] + 0.001]);
  const first = mesh.vertexCount;
  for (const p of outline) mesh.vertex(p);
  for (let k = 0; k < n; k++) {
    const a = first + k;
    const b = first + ((k + 1) % n);
    // The outline runs counter-clockwise on the left lens and clockwise on the right (mirrored).
    if (side > 0) mesh.triangle(c, a, b);
    else mesh.triangle(c, b, a);
  }
}
