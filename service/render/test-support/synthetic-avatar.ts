import type { AvatarJoint, AvatarModel } from '../../avatar-model/model.js';
import type { Vec3 } from '../affine.js';
import { MeshBuilder, material, textureFromRgba, type UvRect } from './test-meshes.js';

/**
 * A stand-in for the avatar builder's output: an A-posed humanoid of
 * ellipsoids, tubes and boxes with Mixamo-named joints, in model.ts's
 * conventions (metres, +Y up, facing +Z, feet at y = 0). Three meshes:
 *  - Body: opaque, one texture atlas (face, striped shirt with a chest badge, denim…);
 *  - Hair: opaque, untextured, double-sided cap;
 *  - Visor: BLEND, a semi-transparent blue band over the eyes.
 * The front differs from the back (face, nose, chest badge; red back panel) so turnaround
 * panels differ.
 */
export interface SyntheticAvatarOptions {
  /** Tessellation multiplier: 1 ≈ 12.5k triangles, 2.2 ≈ 60k. */
  detail?: number;
  /** Side of the square texture atlas, pixels. */
  textureSize?: number;
}

/**
 * An atlas region: the mesh maps into `uv`, a little inside the painted area, so bilinear
 * filtering and the smaller mip levels do not bleed the neighbouring region into seams.
 */
interface AtlasRegion {
  painted: UvRect;
  uv: UvRect;
}
const PADDING = 1 / 64;
const region = (u0: number, v0: number, u1: number, v1: number): AtlasRegion => ({
  painted: [u0, v0, u1, v1],
  uv: [u0 + PADDING, v0 + PADDING, u1 - PADDING, v1 - PADDING],
});
const HEAD = region(0, 0, 0.5, 0.5);
const SHIRT = region(0.5, 0, 1, 0.5);
const SKIN = region(0, 0.5, 0.25, 0.75);
const TROUSERS = region(0.25, 0.5, 0.5, 0.75);
const SHOES = region(0.5, 0.5, 0.75, 0.75);
const SLEEVE = region(0.75, 0.5, 1, 0.75);

const JOINTS: readonly (readonly [name: string, parent: number, position: Vec3])[] = [
  ['Hips', -1, [0, 0.95, 0]],
  ['Spine', 0, [0, 1.05, 0]],
  ['Spine1', 1, [0, 1.18, 0]],
  ['Spine2', 2, [0, 1.3, 0]],
  ['Neck', 3, [0, 1.45, 0]],
  ['Head', 4, [0, 1.56, 0.01]],
  ['HeadTop_End', 5, [0, 1.77, 0.01]],
  ['LeftShoulder', 3, [0.06, 1.38, 0]],
  ['LeftArm', 7, [0.19, 1.4, 0]],
  ['LeftForeArm', 8, [0.37, 1.186, 0]],
  ['LeftHand', 9, [0.537, 0.987, 0]],
  ['RightShoulder', 3, [-0.06, 1.38, 0]],
  ['RightArm', 11, [-0.19, 1.4, 0]],
  ['RightForeArm', 12, [-0.37, 1.186, 0]],
  ['RightHand', 13, [-0.537, 0.987, 0]],
  ['LeftUpLeg', 0, [0.09, 0.9, 0]],
  ['LeftLeg', 15, [0.09, 0.5, 0.01]],
  ['LeftFoot', 16, [0.09, 0.09, 0]],
  ['LeftToeBase', 17, [0.09, 0.02, 0.12]],
  ['RightUpLeg', 0, [-0.09, 0.9, 0]],
  ['RightLeg', 19, [-0.09, 0.5, 0.01]],
  ['RightFoot', 20, [-0.09, 0.09, 0]],
  ['RightToeBase', 21, [-0.09, 0.02, 0.12]],
];

const joint = (name: string): number => JOINTS.findIndex(([n]) => n === name);
const at = (name: string): Vec3 => JOINTS[joint(name)]![2];

export async function createSyntheticAvatar(
  options: SyntheticAvatarOptions = {},
): Promise<AvatarModel> {
  const detail = options.detail ?? 1;
  const textureSize = options.textureSize ?? 256;
  const n = (base: number) => Math.max(3, Math.round(base * detail));

  const body = new MeshBuilder();
  const head = at('Head');
  const headCentre: Vec3 = [head[0], head[1] + 0.08, head[2]];
  body.ellipsoid(headCentre, [0.085, 0.115, 0.1], n(32), n(24), HEAD.uv, joint('Head'));
  body.ellipsoid(
    [0, headCentre[1] - 0.01, 0.1],
    [0.015, 0.025, 0.022],
    n(8),
    n(6),
    SKIN.uv,
    joint('Head'),
  );
  body.tube(
    [0, 1.42, 0],
    [0, 1.57, 0],
    [0.05, 0.05],
    [0.045, 0.045],
    n(16),
    n(4),
    SKIN.uv,
    joint('Neck'),
  );
  body.tube(
    [0, 1.4, 0],
    [0, 0.95, 0],
    [0.18, 0.11],
    [0.16, 0.105],
    n(32),
    n(24),
    SHIRT.uv,
    joint('Spine1'),
  );
  body.ellipsoid([0, 1.4, 0], [0.19, 0.07, 0.11], n(32), n(8), SLEEVE.uv, joint('Spine2'));
  body.ellipsoid([0, 0.93, 0], [0.17, 0.12, 0.11], n(32), n(12), TROUSERS.uv, joint('Hips'));
  for (const side of ['Left', 'Right'] as const) {
    const shoulder = at(`${side}Arm`);
    const elbow = at(`${side}ForeArm`);
    const wrist = at(`${side}Hand`);
    const hand: Vec3 = [wrist[0] + (wrist[0] - elbow[0]) * 0.35, wrist[1] - 0.07, wrist[2]];
    body.ellipsoid(shoulder, [0.055, 0.055, 0.055], n(16), n(12), SLEEVE.uv, joint(`${side}Arm`));
    body.tube(
      shoulder,
      elbow,
      [0.05, 0.05],
      [0.04, 0.04],
      n(16),
      n(12),
      SLEEVE.uv,
      joint(`${side}Arm`),
    );
    body.ellipsoid(elbow, [0.04, 0.04, 0.04], n(16), n(12), SKIN.uv, joint(`${side}ForeArm`));
    body.tube(
      elbow,
      wrist,
      [0.04, 0.04],
      [0.032, 0.03],
      n(16),
      n(12),
      SKIN.uv,
      joint(`${side}ForeArm`),
    );
    body.ellipsoid(hand, [0.04, 0.08, 0.025], n(16), n(12), SKIN.uv, joint(`${side}Hand`));

    const hip = at(`${side}UpLeg`);
    const knee = at(`${side}Leg`);
    const ankle = at(`${side}Foot`);
    body.tube(
      hip,
      knee,
      [0.075, 0.075],
      [0.055, 0.055],
      n(20),
      n(16),
      TROUSERS.uv,
      joint(`${side}UpLeg`),
    );
    body.ellipsoid(knee, [0.055, 0.055, 0.055], n(16), n(12), TROUSERS.uv, joint(`${side}Leg`));
    body.tube(
      knee,
      ankle,
      [0.055, 0.055],
      [0.042, 0.042],
      n(20),
      n(16),
      TROUSERS.uv,
      joint(`${side}Leg`),
    );
    body.box([ankle[0], 0.04, 0.05], [0.09, 0.08, 0.25], SHOES.uv, joint(`${side}Foot`));
  }

  const hair = new MeshBuilder();
  hair.ellipsoid(
    headCentre,
    [0.093, 0.124, 0.108],
    n(32),
    n(12),
    undefined,
    joint('Head'),
    0,
    0.42,
  );

  const visor = new MeshBuilder();
  const eyeY = headCentre[1] + 0.115 * Math.cos(0.45 * Math.PI);
  visor.surface(
    n(32),
    n(4),
    (s, t) => {
      const phi = (s - 0.5) * 0.8 * Math.PI;
      const y = eyeY + 0.025 - 0.05 * t;
      const x = Math.sin(phi);
      const z = Math.cos(phi);
      return {
        position: [headCentre[0] + 0.1 * x, y, headCentre[2] + 0.115 * z],
        normal: [x / 0.1, 0, z / 0.115],
      };
    },
    undefined,
    joint('Head'),
  );

  const atlas = paintAtlas(textureSize);
  const texture = await textureFromRgba(atlas, textureSize, textureSize);
  const joints: AvatarJoint[] = JOINTS.map(([name, parent, position]) => ({
    name,
    parent,
    position: [...position],
    // The renderer draws the bind pose, so the joints' rest orientation does not matter here.
    orientation: [0, 0, 0, 1],
  }));
  return {
    meshes: [
      body.build('Body', material({ name: 'Body', texture, roughness: 0.6 })),
      hair.build(
        'Hair',
        material({
          name: 'Hair',
          baseColor: [0.06, 0.035, 0.02, 1],
          roughness: 0.45,
          doubleSided: true,
        }),
      ),
      visor.build(
        'Visor',
        material({
          name: 'Visor',
          baseColor: [0.1, 0.35, 0.95, 0.4],
          roughness: 0.15,
          alphaMode: 'BLEND',
          doubleSided: true,
        }),
      ),
    ],
    joints,
    extras: { synthetic: true },
  };
}

type Rgb = readonly [number, number, number];
const SKIN_TONE: Rgb = [224, 172, 140];

function paintAtlas(size: number): Uint8Array {
  const rgba = new Uint8Array(size * size * 4);
  const regions: readonly (readonly [AtlasRegion, (s: number, t: number) => Rgb])[] = [
    [HEAD, paintFace],
    [SHIRT, paintShirt],
    [SKIN, (s, t) => shade(SKIN_TONE, noise(s, t) * 8)],
    [
      TROUSERS,
      (s, t) => ((Math.floor(s * 16) + Math.floor(t * 16)) % 2 ? [52, 72, 122] : [70, 95, 150]),
    ],
    [SHOES, (_s, t) => (t > 0.8 ? [30, 30, 30] : [80, 50, 35])],
    [SLEEVE, (s) => stripes(s)],
  ];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = (x + 0.5) / size;
      const v = (y + 0.5) / size;
      let colour: Rgb = [128, 128, 128];
      for (const [{ painted, uv }, paint] of regions) {
        if (u < painted[0] || u >= painted[2] || v < painted[1] || v >= painted[3]) continue;
        // Local coordinates of the mapped area, carried on (clamped) into the padding.
        const s = Math.min(Math.max((u - uv[0]) / (uv[2] - uv[0]), 0), 1);
        const t = Math.min(Math.max((v - uv[1]) / (uv[3] - uv[1]), 0), 1);
        colour = paint(s, t);
        break;
      }
      const o = (y * size + x) * 4;
      rgba[o] = colour[0];
      rgba[o + 1] = colour[1];
      rgba[o + 2] = colour[2];
      rgba[o + 3] = 255;
    }
  }
  return rgba;
}

/** Eyes, brows and mouth on the ellipsoid's front (s = 0.5); s and t are longitude and latitude. */
function paintFace(s: number, t: number): Rgb {
  const theta = t * Math.PI;
  const across = (dS: number) => dS * 2 * Math.PI * Math.sin(theta);
  const down = (dT: number) => dT * Math.PI;
  for (const eyeS of [0.5 - 0.065, 0.5 + 0.065]) {
    const distance = Math.hypot(across(s - eyeS), down(t - 0.45) * 1.6);
    if (distance < 0.05) return [40, 60, 90];
    if (distance < 0.11) return [245, 245, 240];
    const brow = down(t - 0.39);
    if (Math.abs(brow) < 0.03 && Math.abs(across(s - eyeS)) < 0.16) return [60, 40, 30];
  }
  if (Math.abs(down(t - 0.63)) < 0.025 && Math.abs(across(s - 0.5)) < 0.22) return [170, 70, 75];
  return SKIN_TONE;
}

/** Stripes, a yellow badge on the chest and a big red panel across the back. */
function paintShirt(s: number, t: number): Rgb {
  if (Math.hypot((s - 0.5) * 2, t - 0.25) < 0.09) return [245, 200, 40];
  if ((s < 0.2 || s > 0.8) && t > 0.1 && t < 0.7) return [190, 40, 40];
  return stripes(t);
}

function stripes(x: number): Rgb {
  return Math.floor(x * 12) % 2 ? [35, 115, 135] : [215, 220, 210];
}

function shade(colour: Rgb, by: number): Rgb {
  return [colour[0] + by, colour[1] + by, colour[2] + by];
}

/** Cheap deterministic value noise in [−1, 1]. */
function noise(s: number, t: number): number {
  const h = Math.sin(s * 12.9898 * 97 + t * 78.233 * 97) * 43758.5453;
  return (h - Math.floor(h)) * 2 - 1;
}
