import type { EyeTexture } from '../../../shared/api/index.js';
import type { AvatarMaterial } from '../model.js';
import { EYE_COLOURS } from '../../../shared/appearance/eye-colours.js';
import {
  LEFT_EYE_CONTOUR,
  LEFT_EYE_CORNERS,
  RIGHT_EYE_CONTOUR,
  RIGHT_EYE_CORNERS,
} from './face-landmarks.js';
import { irisTexture, scleraTexture } from './eye-textures.js';
import { hexMaterial, texturedMaterial } from './materials.js';
import { MeshBuilder } from './mesh-builder.js';
import { distance, scale, type Vec3 } from './vec3.js';

/** An eyeball's radius per metre of eye opening (24 mm balls behind 29 mm wide openings). */
export const RADIUS_PER_WIDTH = 0.42;
/** The iris covers the front of the ball up to this angle from straight ahead. */
const IRIS_ANGLE = Math.asin(0.5);
/** Pupil and collarette as fractions of the iris radius. */
const PUPIL = 0.36;
const COLLARETTE = 0.62;
const AROUND = 24;

export interface EyePart {
  name: string;
  mesh: MeshBuilder;
  material: AvatarMaterial;
}

export interface EyePlacement {
  centre: Vec3;
  radius: number;
}

/**
 * Where the eyeballs sit: centred behind the middle of each eye's contour,
 * sized from the opening's width, with their fronts level with the lids so
 * that they show through the openings without poking through closed lids.
 */
export function placeEyes(points: readonly Vec3[]): [EyePlacement, EyePlacement] {
  const place = (contour: readonly number[], corners: readonly [number, number]): EyePlacement => {
    let sum: Vec3 = [0, 0, 0];
    for (const i of contour) {
      const p = points[i]!;
      sum = [sum[0] + p[0], sum[1] + p[1], sum[2] + p[2]];
    }
    const mid = scale(sum, 1 / contour.length);
    const radius = RADIUS_PER_WIDTH * distance(points[corners[0]]!, points[corners[1]]!);
    return { centre: [mid[0], mid[1], mid[2] - radius * 1.02], radius };
  };
  return [place(RIGHT_EYE_CONTOUR, RIGHT_EYE_CORNERS), place(LEFT_EYE_CONTOUR, LEFT_EYE_CORNERS)];
}

/**
 * Both eyes: a white ball open at the front, and a flat iris closing that
 * opening in three rings (pupil, collarette, iris) so that the colours never
 * overlap or flicker; the white and the two iris rings are textured
 * (`eye-textures.ts`). The white is glossy, the wet highlight of the eye;
 * pupil and iris are matte: flat and glossy, turned towards the light, a
 * disc mirrored it whole and a brown iris went grey.
 */
export function buildEyes(eyes: readonly EyePlacement[], colour: EyeTexture): EyePart[] {
  const palette = EYE_COLOURS[colour];
  const sclera = new MeshBuilder();
  const pupil = new MeshBuilder();
  const inner = new MeshBuilder();
  const iris = new MeshBuilder();
  for (const eye of eyes) {
    appendSclera(sclera, eye);
    const edge = eye.radius * Math.sin(IRIS_ANGLE);
    appendDisc(pupil, eye, 0, PUPIL * edge);
    // The iris texture's v: pupil to collarette over its first half, on to the limbus over its second.
    appendDisc(inner, eye, PUPIL * edge, COLLARETTE * edge, [0, 0.5]);
    appendDisc(iris, eye, COLLARETTE * edge, edge, [0.5, 1]);
  }
  return [
    {
      name: 'EyeWhites',
      mesh: sclera,
      material: texturedMaterial('EyeWhite', scleraTexture(), { roughness: 0.25 }),
    },
    {
      name: 'EyePupils',
      mesh: pupil,
      material: hexMaterial('EyePupil', '#080808', { roughness: 0.9 }),
    },
    {
      name: 'EyeIrisInner',
      mesh: inner,
      material: {
        ...hexMaterial(`EyeIrisInner_${colour}`, palette.inner, { roughness: 0.9 }),
        texture: irisTexture(),
      },
    },
    {
      name: 'EyeIrises',
      mesh: iris,
      material: {
        ...hexMaterial(`EyeIris_${colour}`, palette.iris, { roughness: 0.9 }),
        texture: irisTexture(),
      },
    },
  ];
}

function appendSclera(mesh: MeshBuilder, eye: EyePlacement): void {
  const rings = 10;
  const first = mesh.vertexCount;
  const { centre: c, radius: r } = eye;
  for (let k = 0; k < rings; k++) {
    const theta = IRIS_ANGLE + ((Math.PI - IRIS_ANGLE) * k) / rings;
    for (let j = 0; j < AROUND; j++) {
      const phi = (2 * Math.PI * j) / AROUND;
      mesh.vertex(
        [
          c[0] + r * Math.sin(theta) * Math.cos(phi),
          c[1] + r * Math.sin(theta) * Math.sin(phi),
          c[2] + r * Math.cos(theta),
        ],
        [0.5, theta / Math.PI],
      );
    }
  }
  const back = mesh.vertex([c[0], c[1], c[2] - r], [0.5, 1]);
  const at = (k: number, j: number) => first + k * AROUND + (j % AROUND);
  // Rings go backwards (away from +z) and around counter-clockwise seen from the front.
  for (let k = 0; k < rings - 1; k++) {
    for (let j = 0; j < AROUND; j++)
      mesh.quad(at(k, j), at(k + 1, j), at(k + 1, j + 1), at(k, j + 1));
  }
  for (let j = 0; j < AROUND; j++) mesh.triangle(at(rings - 1, j), back, at(rings - 1, j + 1));
}

/**
 * A flat ring (or disc when inner = 0) facing +z in the plane of the
 * sclera's opening; textured from v = `v[0]` on its inner edge to `v[1]` on
 * its outer one, with u going from 1 round to 0 and back, so the texture
 * meets itself with no seam.
 */
function appendDisc(
  mesh: MeshBuilder,
  eye: EyePlacement,
  inner: number,
  outer: number,
  v?: [number, number],
): void {
  const z = eye.centre[2] + eye.radius * Math.cos(IRIS_ANGLE);
  const [cx, cy] = eye.centre;
  const first = mesh.vertexCount;
  const ring = (radius: number, at: number | undefined) => {
    for (let j = 0; j < AROUND; j++) {
      const phi = (2 * Math.PI * j) / AROUND;
      const uv: [number, number] | undefined =
        at === undefined ? undefined : [Math.abs((2 * j) / AROUND - 1), at];
      mesh.vertex([cx + radius * Math.cos(phi), cy + radius * Math.sin(phi), z], uv);
    }
  };
  ring(outer, v?.[1]);
  const at = (j: number) => first + (j % AROUND);
  if (inner === 0) {
    const centre = mesh.vertex([cx, cy, z]);
    for (let j = 0; j < AROUND; j++) mesh.triangle(centre, at(j), at(j + 1));
    return;
  }
  ring(inner, v?.[0]);
  const inside = (j: number) => first + AROUND + (j % AROUND);
  for (let j = 0; j < AROUND; j++) mesh.quad(inside(j), at(j), at(j + 1), inside(j + 1));
}
