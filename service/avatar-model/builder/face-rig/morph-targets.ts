import type { AvatarJoint, AvatarMesh } from '../../model.js';
import { boundaryLoops } from '../body-stitch.js';
import { RADIUS_PER_WIDTH } from '../eyes.js';
import { socketVertex } from '../eye-sockets.js';
import { cavityDepth, cavityLip } from '../head-mouth.js';
import { add, cross, distance, dot, scale, smoothstep, sub, type Vec3 } from '../vec3.js';
import { faceShapes, type EyeBall, type FaceShape } from './face-shapes.js';
import { LEFT_LIDS, LOWER_LIP, RIGHT_LIDS, UPPER_LIP } from './landmark-groups.js';

/** The head mesh's first vertices are the 468 face landmarks, in their order. */
export const FACE_LANDMARKS = 468;

/**
 * How each face part follows the shapes. `landmarks`: like the nearest
 * landmarks, fading out between `fade[0]` and `fade[1]` metres from them
 * (the skull far behind the face stays put); `cavity`: the mouth's cavity,
 * each vertex carried by no landmark of the lip it does not hang from
 * (`cavityLip`), and the jaw turning its floor less the deeper it lies;
 * `jaw`: lower parts (below the lips' line) turn with the jaw;
 * `tongue` and `eye` as named; `lash`: each lash turns with its root on the
 * upper lid's edge (lashOffset); `socket`: the eye's socket, its rim on the
 * lids' edge and its wall turning with them (socketOffset).
 */
interface FollowRule {
  fade?: [number, number];
  cavity?: boolean;
  jaw?: 'lower' | 'all';
  tongue?: boolean;
  eye?: boolean;
  lash?: boolean;
  socket?: boolean;
}

const RULES: Record<string, FollowRule> = {
  Head: { fade: [0.004, 0.035] },
  Brows: { fade: [0.012, 0.03] },
  Lashes: { lash: true },
  EyeSockets: { socket: true },
  // Closed lips' inner edges lie on each other: carried by both, the cavity's first rings went
  // half way down with the jaw, a dark curtain across the open mouth in front of the teeth. And
  // turned whole with the jaw, its floor's back went down into the neck, whose skin then showed
  // at the back of the open mouth.
  MouthCavity: { fade: [0.002, 0.01], jaw: 'lower', cavity: true },
  TeethLower: { jaw: 'all' },
  Tongue: { jaw: 'all', tongue: true },
  EyeWhites: { eye: true },
  EyePupils: { eye: true },
  EyeIrisInner: { eye: true },
  EyeIrises: { eye: true },
};

/** Nearest landmarks used to carry their motion to a vertex that is not one. */
const NEIGHBOURS = 4;
/**
 * Over this distance (m) from the head's edge on the neck the shapes fade
 * out: that edge is skinned with the body and lies on it, so it must not move.
 */
const SEAM_FADE = 0.02;

/**
 * Gives the face's meshes ARKit's 52 blend shapes as morph targets: the
 * head carries all of them, every other face part the ones that move it.
 * Works on the finished model-space meshes, so bone scaling is already in.
 */
export function addFaceMorphTargets(meshes: AvatarMesh[], joints: readonly AvatarJoint[]): void {
  const head = meshes.find((m) => m.name === 'Head');
  if (!head || head.positions.length < FACE_LANDMARKS * 3) return;
  const landmarks = Array.from({ length: FACE_LANDMARKS }, (_, i) => vertex(head.positions, i));
  const eyeBall = (name: 'LeftEye' | 'RightEye', lids: typeof LEFT_LIDS): EyeBall => {
    const joint = joints.find((j) => j.name === name);
    const width = distance(landmarks[lids.corners[0]]!, landmarks[lids.corners[1]]!);
    const centre: Vec3 = joint ? [...joint.position] : landmarks[lids.upper[3]!]!;
    return { centre, radius: RADIUS_PER_WIDTH * width };
  };
  const eyes = { left: eyeBall('LeftEye', LEFT_LIDS), right: eyeBall('RightEye', RIGHT_LIDS) };
  const shapes = faceShapes({ landmarks, eyes });
  const lineY = (landmarks[13]![1] + landmarks[14]![1]) / 2;

  for (const mesh of meshes) {
    const rule = RULES[mesh.name];
    if (!rule) continue;
    const count = mesh.positions.length / 3;
    const admits = rule.cavity ? fromItsLip : undefined;
    const carriers = rule.fade
      ? nearestLandmarks(mesh, landmarks, mesh === head, rule.fade, admits)
      : null;
    if (carriers && mesh === head) pinToBody(mesh, carriers, joints);
    const targets = [];
    for (const shape of shapes) {
      const offsets = new Float32Array(count * 3);
      for (let v = 0; v < count; v++)
        addOffset(offsets, v, shape, rule, mesh.positions, carriers, lineY, eyes, landmarks);
      let moves = false;
      for (let k = 0; k < offsets.length && !moves; k++) moves = Math.abs(offsets[k]!) > 1e-7;
      if (moves || mesh === head) targets.push({ name: shape.name, positions: offsets });
    }
    if (targets.length > 0) mesh.morphTargets = targets;
  }
}

interface Carrier {
  /** Landmark indices and their weights (summing to the fade factor). */
  landmarks: number[];
  weights: number[];
}

/**
 * Over this span of the cavity's depth (0 at the lips, 1 at its back) its
 * floor turns with the jaw less and less, to not at all: the throat stays.
 */
const CAVITY_FLOOR_TURNS: [number, number] = [0.3, 1];

const UPPER = new Set(UPPER_LIP);
const LOWER = new Set(LOWER_LIP);

/** For `cavity`: whether `landmark` may carry the cavity's vertex `v`. */
function fromItsLip(v: number, landmark: number): boolean {
  const lip = cavityLip(v);
  return lip === 'upper' ? !LOWER.has(landmark) : lip === 'lower' ? !UPPER.has(landmark) : true;
}

function nearestLandmarks(
  mesh: AvatarMesh,
  landmarks: readonly Vec3[],
  isHead: boolean,
  fade: [number, number],
  admits: (v: number, landmark: number) => boolean = () => true,
): Carrier[] {
  const count = mesh.positions.length / 3;
  const carriers: Carrier[] = [];
  const box: { min: Vec3; max: Vec3 } = {
    min: [Infinity, Infinity, Infinity],
    max: [-Infinity, -Infinity, -Infinity],
  };
  for (const l of landmarks) {
    for (let k = 0; k < 3; k++) {
      box.min[k] = Math.min(box.min[k]!, l[k]! - fade[1]);
      box.max[k] = Math.max(box.max[k]!, l[k]! + fade[1]);
    }
  }
  for (let v = 0; v < count; v++) {
    if (isHead && v < FACE_LANDMARKS) {
      carriers.push({ landmarks: [v], weights: [1] });
      continue;
    }
    const px = mesh.positions[3 * v]!;
    const py = mesh.positions[3 * v + 1]!;
    const pz = mesh.positions[3 * v + 2]!;
    // Beyond the fade around the face's box (the back of the skull) nothing follows the face.
    if (
      px < box.min[0] ||
      px > box.max[0] ||
      py < box.min[1] ||
      py > box.max[1] ||
      pz < box.min[2]
    ) {
      carriers.push({ landmarks: [], weights: [] });
      continue;
    }
    const near: { i: number; d: number }[] = [];
    let worst = Infinity;
    for (let i = 0; i < landmarks.length; i++) {
      if (!admits(v, i)) continue;
      const l = landmarks[i]!;
      const d2 = (px - l[0]) ** 2 + (py - l[1]) ** 2 + (pz - l[2]) ** 2;
      if (near.length < NEIGHBOURS || d2 < worst) {
        near.push({ i, d: d2 });
        near.sort((a, b) => a.d - b.d);
        if (near.length > NEIGHBOURS) near.pop();
        worst = near[near.length - 1]!.d;
      }
    }
    for (const n of near) n.d = Math.sqrt(n.d);
    const nearest = near[0]!.d;
    // A vertex on a landmark (the skull's first ring repeats the face's rim) moves exactly with it.
    if (nearest < 1e-6) {
      carriers.push({ landmarks: [near[0]!.i], weights: [1] });
      continue;
    }
    const inverse = near.map((n) => 1 / (n.d * n.d));
    const sum = inverse.reduce((a, b) => a + b, 0);
    const keep = 1 - smoothstep(fade[0], fade[1], nearest);
    carriers.push({
      landmarks: near.map((n) => n.i),
      weights: inverse.map((w) => (w / sum) * keep),
    });
  }
  return carriers;
}

/**
 * Fades the carriers of head vertices near its open edge that is skinned to
 * bones below the head (its edge on the neck), to nothing on it. By
 * position, so vertices repeated at one place (the face's rim) fade alike.
 */
function pinToBody(mesh: AvatarMesh, carriers: Carrier[], joints: readonly AvatarJoint[]): void {
  const head = joints.findIndex((j) => j.name === 'Head');
  const count = mesh.positions.length / 3;
  const pinned: Vec3[] = [];
  for (const v of new Set(boundaryLoops(mesh.indices).flat())) {
    for (let k = 0; k < 4; k++) {
      if (mesh.weights[4 * v + k]! > 0 && mesh.joints[4 * v + k] !== head) {
        pinned.push(vertex(mesh.positions, v));
        break;
      }
    }
  }
  if (pinned.length === 0) return;
  for (let v = 0; v < count; v++) {
    const p = vertex(mesh.positions, v);
    let nearest = Infinity;
    for (const q of pinned) nearest = Math.min(nearest, distance(p, q));
    const keep = smoothstep(0, SEAM_FADE, nearest);
    if (keep < 1) carriers[v]!.weights = carriers[v]!.weights.map((w) => w * keep);
  }
}

/** The upper lids' edges, corner to corner, on the person's left and right. */
const LASH_ROOTS = {
  left: [LEFT_LIDS.corners[0], ...LEFT_LIDS.upper, LEFT_LIDS.corners[1]],
  right: [RIGHT_LIDS.corners[0], ...RIGHT_LIDS.upper, RIGHT_LIDS.corners[1]],
};

/**
 * A lash vertex's offset: it moves with its root (the upper lid's edge point
 * across from it) and turns, about the eye's horizontal axis, by as much as
 * that root turns round the eye's centre. Carried by its nearest landmarks
 * instead, a lash's tip stayed with the fold above the lid while its root
 * went down with the lid: closed, the eye wore a flap of the lashes' colour.
 */
function lashOffset(
  p: Vec3,
  shape: FaceShape,
  landmarks: readonly Vec3[],
  eyes: { left: EyeBall; right: EyeBall },
): Vec3 {
  const side = p[0] > 0 ? 'left' : 'right';
  // Each lash stands straight out of its root: the same x.
  let root = LASH_ROOTS[side][0]!;
  for (const r of LASH_ROOTS[side]) {
    if (Math.abs(landmarks[r]![0] - p[0]) < Math.abs(landmarks[root]![0] - p[0])) root = r;
  }
  const move = shape.landmarks[root]!;
  const turned = turnedX(sub(p, landmarks[root]!), rootTurn(root, shape, landmarks, eyes[side]));
  return [move[0] + turned[0], move[1] + turned[1], move[2] + turned[2]];
}

/**
 * A socket vertex's offset: on the lids' edge it is that landmark and moves
 * with it; deeper, it turns round the eye's centre (so it keeps its gap from
 * the ball) the way its column's landmark does, less and less to not at all
 * at the back. Carried by the nearest landmarks, the wall just inside a
 * closing lid went down as far as the lid did, in front of the ball.
 */
function socketOffset(
  v: number,
  p: Vec3,
  shape: FaceShape,
  landmarks: readonly Vec3[],
  eyes: { left: EyeBall; right: EyeBall },
): Vec3 {
  const { root, depth } = socketVertex(v);
  const move = shape.landmarks[root]!;
  if (depth === 0) return [move[0], move[1], move[2]];
  const { centre } = eyes[landmarks[root]![0] > 0 ? 'left' : 'right'];
  const from = sub(landmarks[root]!, centre);
  const to = add(from, move);
  const axis = cross(from, to);
  const sine = Math.hypot(...axis);
  if (sine < 1e-12) return [0, 0, 0];
  const angle = (1 - depth) * Math.atan2(sine, dot(from, to));
  return sub(turnedAbout(sub(p, centre), scale(axis, 1 / sine), angle), sub(p, centre));
}

/** `arm` turned by `angle` about the unit `axis` (Rodrigues). */
function turnedAbout(arm: Vec3, axis: Vec3, angle: number): Vec3 {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const across = cross(axis, arm);
  const along = dot(axis, arm) * (1 - c);
  return [
    arm[0] * c + across[0] * s + axis[0] * along,
    arm[1] * c + across[1] * s + axis[1] * along,
    arm[2] * c + across[2] * s + axis[2] * along,
  ];
}

/** How far (radians about +x) the shape turns a lid's landmark round its eye's centre. */
function rootTurn(
  root: number,
  shape: FaceShape,
  landmarks: readonly Vec3[],
  eye: EyeBall,
): number {
  const from = sub(landmarks[root]!, eye.centre);
  const move = shape.landmarks[root]!;
  const to = [from[0] + move[0], from[1] + move[1], from[2] + move[2]] as const;
  return Math.atan2(from[1], from[2]) - Math.atan2(to[1], to[2]);
}

/** The offset of the arm `arm` turned by `turn` about +x. */
function turnedX(arm: Vec3, turn: number): Vec3 {
  const c = Math.cos(turn);
  const s = Math.sin(turn);
  return [0, arm[1] * c - arm[2] * s - arm[1], arm[1] * s + arm[2] * c - arm[2]];
}

function addOffset(
  out: Float32Array,
  v: number,
  shape: FaceShape,
  rule: FollowRule,
  positions: Float32Array,
  carriers: Carrier[] | null,
  lineY: number,
  eyes: { left: EyeBall; right: EyeBall },
  landmarks: readonly Vec3[],
): void {
  let carried = 0;
  const carrier = carriers?.[v];
  if (carrier) {
    for (let k = 0; k < carrier.landmarks.length; k++) {
      const w = carrier.weights[k]!;
      if (w === 0) continue;
      const d = shape.landmarks[carrier.landmarks[k]!]!;
      out[3 * v]! += d[0] * w;
      out[3 * v + 1]! += d[1] * w;
      out[3 * v + 2]! += d[2] * w;
      carried += w;
    }
  }
  if (rule.lash || rule.socket) {
    const p = vertex(positions, v);
    const d = rule.lash
      ? lashOffset(p, shape, landmarks, eyes)
      : socketOffset(v, p, shape, landmarks, eyes);
    out[3 * v]! += d[0];
    out[3 * v + 1]! += d[1];
    out[3 * v + 2]! += d[2];
  }
  const needsPoint = (rule.jaw && shape.jaw) || (rule.eye && shape.eyes);
  if (!needsPoint && !(rule.tongue && shape.tongue)) return;
  const p = vertex(positions, v);
  const jawBound = rule.jaw === 'all' || (rule.jaw === 'lower' && p[1] < lineY);
  const add = (d: readonly number[], w = 1) => {
    out[3 * v]! += d[0]! * w;
    out[3 * v + 1]! += d[1]! * w;
    out[3 * v + 2]! += d[2]! * w;
  };
  const jawShare = rule.cavity ? 1 - smoothstep(...CAVITY_FLOOR_TURNS, cavityDepth(v)) : 1;
  if (jawBound && shape.jaw) add(shape.jaw(p), Math.max(0, 1 - carried) * jawShare);
  if (rule.tongue && shape.tongue) add(shape.tongue);
  if (rule.eye && shape.eyes) {
    const side = p[0] > 0 ? 'left' : 'right';
    const angles = shape.eyes[side];
    if (angles) add(turnAbout(p, eyes[side].centre, angles[0], angles[1]));
  }
}

/** Offset of p turned by yaw (about +y) and then pitch (about +x) around `centre`. */
function turnAbout(p: Vec3, centre: Vec3, yaw: number, pitch: number): Vec3 {
  const d = sub(p, centre);
  const cy = Math.cos(yaw);
  const sy = Math.sin(yaw);
  const x1 = d[0] * cy + d[2] * sy;
  const z1 = -d[0] * sy + d[2] * cy;
  const cp = Math.cos(pitch);
  const sp = Math.sin(pitch);
  const y2 = d[1] * cp - z1 * sp;
  const z2 = d[1] * sp + z1 * cp;
  return [x1 - d[0], y2 - d[1], z2 - d[2]];
}

function vertex(positions: Float32Array, i: number): Vec3 {
  return [positions[3 * i]!, positions[3 * i + 1]!, positions[3 * i + 2]!];
}
