import type { TextureImage } from '../model.js';
import type { EyePlacement } from './eyes.js';
import { LEFT_EYE_CONTOUR, RIGHT_EYE_CONTOUR } from './face-landmarks.js';
import { texturedMaterial } from './materials.js';
import { MeshBuilder } from './mesh-builder.js';
import type { Part } from './part.js';
import { clampedPngTexture } from './png-encode.js';
import { cross, dot, smoothstep, sub, type Vec3 } from './vec3.js';

/**
 * The lids' edge round each eye, the rim of its opening in the head, from
 * its outer corner (the inner corner is its ninth point).
 */
const RIMS = [RIGHT_EYE_CONTOUR, LEFT_EYE_CONTOUR] as const;
const RIM = RIMS[0]!.length;
/**
 * How far round the ball each ring of the socket's wall reaches, as shares
 * of the way from its point on the lids' edge to straight behind the ball.
 * The first hugs the ball just inside the lids: between the edge and it lies
 * all of the wall that one sees, at the corners.
 */
const RING_REACH = [0, 0.12, 0.45, 0.8] as const;
/** The wall's gap from the ball once past the lids' edge, per ball radius. */
const WALL_GAP = 0.04;
/**
 * The wall's colours (sRGB) where it meets the lids' edge, from the inner
 * corner (the texture's u = 0) to the outer (u = 1): the caruncle's pink,
 * then the conjunctiva folding back from the ball to the lids, as pale as
 * the white at the ball's side (`eye-textures.ts`). Lined all round with
 * the caruncle's pink, the outer corner showed in profile as a red dot
 * where the eye's white should be.
 */
const CARUNCLE = [196, 116, 110] as const;
const CONJUNCTIVA = [186, 160, 152] as const;
/** The caruncle's pink gives way to the conjunctiva over this span of u. */
const CARUNCLE_TO: [number, number] = [0.12, 0.35];
/** Deeper in (the texture's v) the wall darkens into the shadow behind the ball, to a fifth. */
const SHADOW_FROM: [number, number] = [0.02, 0.35];
const SHADOW_DEPTH = 0.2;

/** Vertices per eye: the rings round the ball and the pole behind it. */
const PER_EYE = RING_REACH.length * RIM + 1;

/**
 * For the EyeSockets mesh's vertex `v`: the landmark on the lids' edge its
 * column starts from, and how deep it lies (0 on that edge, 1 at the pole
 * behind the ball, whose column is the edge's first point).
 */
export function socketVertex(v: number): { root: number; depth: number } {
  const eye = Math.floor(v / PER_EYE);
  const own = v - eye * PER_EYE;
  const ring = Math.floor(own / RIM);
  const rim = RIMS[eye]!;
  if (ring >= RING_REACH.length) return { root: rim[0]!, depth: 1 };
  return { root: rim[own % RIM]!, depth: RING_REACH[ring]! };
}

/**
 * The eyes' sockets: round each eye a cup from the lids' edge (the rim of
 * the head's opening) back round the ball to behind it. The ball is
 * narrower than the opening: at the corners, and past its side from a
 * turned view, one saw through the opening into the hollow head, and out
 * of it.
 */
export function buildEyeSockets(points: readonly Vec3[], eyes: readonly EyePlacement[]): Part {
  const mesh = new MeshBuilder();
  RIMS.forEach((rim, e) => appendSocket(mesh, rim, points, eyes[e]!));
  return {
    name: 'EyeSockets',
    mesh,
    material: texturedMaterial('EyeSocket', socketTexture(), { roughness: 0.4 }),
  };
}

function appendSocket(
  mesh: MeshBuilder,
  rim: readonly number[],
  points: readonly Vec3[],
  eye: EyePlacement,
): void {
  const first = mesh.vertexCount;
  const { centre, radius } = eye;
  const wall = radius * (1 + WALL_GAP);
  // u from the outer corner (1) round to the inner (0) and back, so the texture meets itself
  // with no seam.
  const u = (j: number) => Math.abs((2 * j) / RIM - 1);
  RING_REACH.forEach((reach, ring) => {
    rim.forEach((landmark, j) => {
      const p = points[landmark]!;
      if (ring === 0) {
        mesh.vertex(p, [u(j), 0]);
        return;
      }
      const d = sub(p, centre);
      const along = Math.hypot(d[0], d[1], d[2]);
      const azimuth = Math.atan2(d[1], d[0]);
      const polar = Math.acos(d[2] / along);
      const turned = polar + (Math.PI - polar) * reach;
      const out = along + (wall - along) * smoothstep(0, 2 * RING_REACH[1], reach);
      mesh.vertex(
        [
          centre[0] + out * Math.sin(turned) * Math.cos(azimuth),
          centre[1] + out * Math.sin(turned) * Math.sin(azimuth),
          centre[2] + out * Math.cos(turned),
        ],
        [u(j), reach],
      );
    });
  });
  const pole = mesh.vertex([centre[0], centre[1], centre[2] - wall], [0.5, 1]);
  const at = (ring: number, j: number) => first + ring * RIM + (j % RIM);
  // Which way round the rim runs depends on the eye (one mirrors the other): the wall faces the
  // ball, inwards, so that it is seen from the opening.
  const a = mesh.position(at(0, 0));
  const b = mesh.position(at(0, 1));
  const c = mesh.position(at(1, 0));
  const facesBall = dot(cross(sub(b, a), sub(c, a)), sub(centre, a)) > 0;
  const quad = (p: number, q: number, r: number, s: number) =>
    facesBall ? mesh.quad(p, q, r, s) : mesh.quad(p, s, r, q);
  for (let ring = 0; ring + 1 < RING_REACH.length; ring++) {
    for (let j = 0; j < RIM; j++)
      quad(at(ring, j), at(ring, j + 1), at(ring + 1, j + 1), at(ring + 1, j));
  }
  const last = RING_REACH.length - 1;
  for (let j = 0; j < RIM; j++) {
    if (facesBall) mesh.triangle(at(last, j), at(last, j + 1), pole);
    else mesh.triangle(at(last, j), pole, at(last, j + 1));
  }
}

let texture: TextureImage | undefined;

/** u runs from the inner corner to the outer, v from the lids' edge to the back. */
function socketTexture(): TextureImage {
  if (texture) return texture;
  const width = 32;
  const height = 32;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const shade = 1 - (1 - SHADOW_DEPTH) * smoothstep(...SHADOW_FROM, y / (height - 1));
    for (let x = 0; x < width; x++) {
      const toConjunctiva = smoothstep(...CARUNCLE_TO, x / (width - 1));
      const o = 4 * (y * width + x);
      for (let k = 0; k < 3; k++) {
        rgba[o + k] = Math.round(
          shade * (CARUNCLE[k]! + (CONJUNCTIVA[k]! - CARUNCLE[k]!) * toConjunctiva),
        );
      }
      rgba[o + 3] = 255;
    }
  }
  texture = clampedPngTexture(rgba, width, height);
  return texture;
}
