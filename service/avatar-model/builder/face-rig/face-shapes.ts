import {
  add,
  addScaled,
  distance,
  length,
  lerp,
  normalize,
  scale,
  smoothstep,
  sub,
  type Vec3,
} from '../vec3.js';
import {
  ARKIT_BLENDSHAPES,
  type ArkitBlendshape,
} from '../../../../shared/appearance/arkit-blendshapes.js';
import {
  BROWS,
  CHEEK,
  CHIN,
  INNER_BROW,
  LEFT_LIDS,
  LOWER_LIP,
  MOUTH_CORNERS,
  NOSE_WING,
  OUTER_BROW,
  RIGHT_LIDS,
  UNDER_EYE,
  UPPER_LIP,
  type EyeLids,
} from './landmark-groups.js';

/**
 * One blend shape as the face rig knows it: how far each of the 468
 * landmarks moves at weight 1, and what moves the parts inside the head
 * (jaw-bound teeth and tongue, the eyeballs).
 */
export interface FaceShape {
  name: ArkitBlendshape;
  landmarks: Vec3[];
  /** Offset of a jaw-bound point (lower teeth, tongue, floor of the mouth). */
  jaw?: (p: Vec3) => Vec3;
  /** Eyeball turns, [yaw, pitch] in radians, about each eye's centre. */
  eyes?: { left?: [number, number]; right?: [number, number] };
  /** The tongue's own offset on top of the jaw's. */
  tongue?: Vec3;
}

export interface FaceRigInput {
  /** The 468 landmarks in model space (x the person's left, y up, z forward). */
  landmarks: readonly Vec3[];
  eyes: { left: EyeBall; right: EyeBall };
}

export interface EyeBall {
  centre: Vec3;
  radius: number;
}

/** The chin drops this far at jawOpen = 1, per metre of face height (2.1 cm on a 12 cm face). */
const JAW_DROP_PER_FACE = 0.175;
const EYE_YAW = 0.38;
const EYE_PITCH = 0.3;
const UPPER = new Set(UPPER_LIP);
const LOWER = new Set(LOWER_LIP);

/** Builds all 52 shapes for one face. */
export function faceShapes(input: FaceRigInput): FaceShape[] {
  const L = input.landmarks;
  const faceHeight = distance(L[10]!, L[152]!);
  // Millimetres on a 12 cm face, scaled to this one.
  const mm = (v: number) => (v / 1000) * (faceHeight / 0.12);
  const lineY = (L[13]![1] + L[14]![1]) / 2;
  const mouthX = (L[MOUTH_CORNERS.left]![0] + L[MOUTH_CORNERS.right]![0]) / 2;
  const isUpper = (j: number) => !LOWER.has(j) && (UPPER.has(j) || L[j]![1] > lineY);
  const isLower = (j: number) => !UPPER.has(j) && (LOWER.has(j) || L[j]![1] <= lineY);
  const onSide = (side: 'left' | 'right') => (j: number) =>
    side === 'left' ? L[j]![0] > mouthX + mm(1) : L[j]![0] < mouthX - mm(1);

  const zero = () => L.map((): Vec3 => [0, 0, 0]);
  /** Moves the given landmarks by `delta`, and their neighbours within `radius` less. */
  const push = (
    out: Vec3[],
    indices: readonly number[],
    delta: Vec3,
    radius: number,
    region: (j: number) => boolean = () => true,
  ) => {
    for (let j = 0; j < L.length; j++) {
      if (!region(j)) continue;
      let w = 0;
      for (const i of indices) {
        const t = distance(L[j]!, L[i]!) / radius;
        if (t < 1) w = Math.max(w, (1 - t * t) ** 2);
      }
      if (w > 0) out[j] = addScaled(out[j]!, delta, w);
    }
    return out;
  };

  // The jaw turns about a hinge in front of the ears, a little below and behind the face edges.
  const hinge: Vec3 = add(lerp(L[234]!, L[454]!, 0.5), [0, -mm(12), -mm(12)]);
  const turn =
    (angle: number) =>
    (p: Vec3): Vec3 => {
      const d = sub(p, hinge);
      const c = Math.cos(angle);
      const s = Math.sin(angle);
      return [0, d[1] * c - d[2] * s - d[1], d[1] * s + d[2] * c - d[2]];
    };
  const chin = L[152]!;
  let opening = 0;
  while (opening < 0.6 && -turn(opening)(chin)[1] < JAW_DROP_PER_FACE * faceHeight)
    opening += 0.002;
  const jawWeight = (j: number) =>
    LOWER.has(j) ? 1 : UPPER.has(j) ? 0 : smoothstep(lineY + mm(6), lineY - mm(14), L[j]![1]);
  const withJaw = (jaw: (p: Vec3) => Vec3, lips: (j: number) => number = () => 1) =>
    L.map((p, j) => scale(jaw(p), jawWeight(j) * (LOWER.has(j) ? lips(j) : 1)));
  // The open mouth is an oval: the lower lip goes down with the jaw fully in the middle and
  // less towards the corners, which stay. Dropped whole, the lip's points beside the corners
  // fell 3–4 cm under them: a box of a mouth.
  const halfMouth = Math.abs(L[MOUTH_CORNERS.left]![0] - L[MOUTH_CORNERS.right]![0]) / 2;
  const lowerLipOpens = (j: number) =>
    Math.sqrt(Math.max(0, 1 - ((L[j]![0] - mouthX) / halfMouth) ** 2));
  const shift = (d: Vec3) => () => d;

  const blink = (lids: EyeLids, eye: EyeBall, amount: number) => {
    const out = zero();
    lids.upper.forEach((u, i) => {
      const up = L[u]!;
      const low = L[lids.lower[i]!]!;
      let target = lerp(up, low, 0.9 * amount);
      // Closing lids slide over the eyeball, never through it.
      const fromCentre = sub(target, eye.centre);
      if (length(fromCentre) < eye.radius * 1.06) {
        target = addScaled(eye.centre, normalize(fromCentre), eye.radius * 1.06);
      }
      out[u] = sub(target, up);
      out[lids.crease[i]!] = scale(out[u]!, 0.4);
      out[lids.lower[i]!] = scale(sub(up, low), 0.1 * amount);
    });
    return out;
  };
  const lidPush = (lids: EyeLids, upper: number, lower: number) => {
    const out = zero();
    for (const u of lids.upper) out[u] = [0, upper, 0];
    for (const c of lids.crease) out[c] = [0, upper * 0.5, 0];
    for (const l of lids.lower) out[l] = [0, lower, 0];
    return out;
  };
  const eyeSide = (side: 'left' | 'right') => ({
    lids: side === 'left' ? LEFT_LIDS : RIGHT_LIDS,
    eye: input.eyes[side],
    // Towards the nose: −x for the left eye, +x for the right.
    inward: side === 'left' ? -1 : 1,
  });
  const corner = (side: 'left' | 'right') => [MOUTH_CORNERS[side]];
  const outward = (side: 'left' | 'right') => (side === 'left' ? 1 : -1);

  const shapes: Record<ArkitBlendshape, () => Omit<FaceShape, 'name'>> = {
    eyeBlinkLeft: () => ({ landmarks: blink(LEFT_LIDS, input.eyes.left, 1) }),
    eyeBlinkRight: () => ({ landmarks: blink(RIGHT_LIDS, input.eyes.right, 1) }),
    eyeSquintLeft: () => ({ landmarks: squint('left') }),
    eyeSquintRight: () => ({ landmarks: squint('right') }),
    eyeWideLeft: () => ({ landmarks: lidPush(LEFT_LIDS, mm(2.5), -mm(0.8)) }),
    eyeWideRight: () => ({ landmarks: lidPush(RIGHT_LIDS, mm(2.5), -mm(0.8)) }),
    eyeLookDownLeft: () => look('left', 0, EYE_PITCH, -mm(2.5)),
    eyeLookDownRight: () => look('right', 0, EYE_PITCH, -mm(2.5)),
    eyeLookUpLeft: () => look('left', 0, -EYE_PITCH, mm(1.5)),
    eyeLookUpRight: () => look('right', 0, -EYE_PITCH, mm(1.5)),
    eyeLookInLeft: () => look('left', eyeSide('left').inward * EYE_YAW, 0, 0),
    eyeLookInRight: () => look('right', eyeSide('right').inward * EYE_YAW, 0, 0),
    eyeLookOutLeft: () => look('left', -eyeSide('left').inward * EYE_YAW, 0, 0),
    eyeLookOutRight: () => look('right', -eyeSide('right').inward * EYE_YAW, 0, 0),

    jawOpen: () => ({ landmarks: withJaw(turn(opening), lowerLipOpens), jaw: turn(opening) }),
    jawForward: () => ({ landmarks: withJaw(shift([0, 0, mm(6)])), jaw: shift([0, 0, mm(6)]) }),
    jawLeft: () => ({ landmarks: withJaw(shift([mm(7), 0, 0])), jaw: shift([mm(7), 0, 0]) }),
    jawRight: () => ({ landmarks: withJaw(shift([-mm(7), 0, 0])), jaw: shift([-mm(7), 0, 0]) }),
    // A corrective for jawOpen: the lips stay together while the jaw drops.
    mouthClose: () => ({
      landmarks: L.map((p, j): Vec3 => {
        const d = turn(opening)(p);
        if (LOWER.has(j)) return scale(d, -lowerLipOpens(j));
        return UPPER.has(j) ? scale(d, 0.15) : [0, 0, 0];
      }),
    }),
    mouthFunnel: () => {
      const out = push(zero(), [...UPPER_LIP, ...LOWER_LIP], [0, 0, mm(5)], mm(10));
      for (const j of [...UPPER_LIP, ...LOWER_LIP]) {
        out[j] = add(out[j]!, [0, (isUpper(j) ? 1 : -1) * mm(2), 0]);
      }
      return { landmarks: out };
    },
    mouthPucker: () => {
      const out = push(zero(), [...UPPER_LIP, ...LOWER_LIP], [0, 0, mm(7)], mm(12));
      for (const j of [...UPPER_LIP, ...LOWER_LIP]) {
        out[j] = add(out[j]!, [(mouthX - L[j]![0]) * 0.3, 0, 0]);
      }
      return { landmarks: out };
    },
    mouthLeft: () => ({
      landmarks: push(zero(), [...UPPER_LIP, ...LOWER_LIP], [mm(7), 0, 0], mm(22)),
    }),
    mouthRight: () => ({
      landmarks: push(zero(), [...UPPER_LIP, ...LOWER_LIP], [-mm(7), 0, 0], mm(22)),
    }),
    mouthSmileLeft: () => smile('left', mm(7)),
    mouthSmileRight: () => smile('right', mm(7)),
    mouthFrownLeft: () => ({
      landmarks: push(zero(), corner('left'), [0, -mm(5), -mm(1)], mm(22)),
    }),
    mouthFrownRight: () => ({
      landmarks: push(zero(), corner('right'), [0, -mm(5), -mm(1)], mm(22)),
    }),
    mouthDimpleLeft: () => ({
      landmarks: push(zero(), corner('left'), [mm(3), 0, -mm(4)], mm(20)),
    }),
    mouthDimpleRight: () => ({
      landmarks: push(zero(), corner('right'), [-mm(3), 0, -mm(4)], mm(20)),
    }),
    mouthStretchLeft: () => ({
      landmarks: push(zero(), corner('left'), [mm(6), -mm(3), -mm(1)], mm(22)),
    }),
    mouthStretchRight: () => ({
      landmarks: push(zero(), corner('right'), [-mm(6), -mm(3), -mm(1)], mm(22)),
    }),
    mouthRollLower: () => ({
      landmarks: push(zero(), LOWER_LIP, [0, mm(2), -mm(4)], mm(6), isLower),
    }),
    mouthRollUpper: () => ({
      landmarks: push(zero(), UPPER_LIP, [0, -mm(2), -mm(4)], mm(6), isUpper),
    }),
    mouthShrugLower: () => ({
      landmarks: push(zero(), [...LOWER_LIP, ...CHIN], [0, mm(4), mm(1)], mm(14), isLower),
    }),
    mouthShrugUpper: () => ({ landmarks: push(zero(), UPPER_LIP, [0, mm(3), 0], mm(8), isUpper) }),
    mouthPressLeft: () => press('left'),
    mouthPressRight: () => press('right'),
    mouthLowerDownLeft: () => ({
      landmarks: push(zero(), LOWER_LIP.filter(onSide('left')), [0, -mm(5), 0], mm(10), isLower),
    }),
    mouthLowerDownRight: () => ({
      landmarks: push(zero(), LOWER_LIP.filter(onSide('right')), [0, -mm(5), 0], mm(10), isLower),
    }),
    mouthUpperUpLeft: () => ({
      landmarks: push(zero(), UPPER_LIP.filter(onSide('left')), [0, mm(5), 0], mm(10), isUpper),
    }),
    mouthUpperUpRight: () => ({
      landmarks: push(zero(), UPPER_LIP.filter(onSide('right')), [0, mm(5), 0], mm(10), isUpper),
    }),
    browDownLeft: () => ({
      landmarks: brow([...BROWS.left.upper, ...BROWS.left.lower], [-mm(1.5), -mm(5), 0]),
    }),
    browDownRight: () => ({
      landmarks: brow([...BROWS.right.upper, ...BROWS.right.lower], [mm(1.5), -mm(5), 0]),
    }),
    browInnerUp: () => ({
      landmarks: brow([...INNER_BROW.left, ...INNER_BROW.right], [0, mm(7), 0]),
    }),
    browOuterUpLeft: () => ({ landmarks: brow(OUTER_BROW.left, [0, mm(7), 0]) }),
    browOuterUpRight: () => ({ landmarks: brow(OUTER_BROW.right, [0, mm(7), 0]) }),
    cheekPuff: () => {
      const out = zero();
      for (const side of ['left', 'right'] as const) {
        push(out, CHEEK[side], [outward(side) * mm(6), 0, mm(3)], mm(30));
      }
      return { landmarks: out };
    },
    cheekSquintLeft: () => ({ landmarks: push(zero(), UNDER_EYE.left, [0, mm(4), mm(1)], mm(16)) }),
    cheekSquintRight: () => ({
      landmarks: push(zero(), UNDER_EYE.right, [0, mm(4), mm(1)], mm(16)),
    }),
    noseSneerLeft: () => ({ landmarks: push(zero(), NOSE_WING.left, [0, mm(4), mm(0.5)], mm(12)) }),
    noseSneerRight: () => ({
      landmarks: push(zero(), NOSE_WING.right, [0, mm(4), mm(0.5)], mm(12)),
    }),
    // The lips part a little for the tongue; the tongue itself reaches out past them.
    tongueOut: () => ({
      landmarks: push(zero(), LOWER_LIP, [0, -mm(3), mm(1)], mm(6), isLower),
      tongue: [0, -mm(4), mm(30)],
    }),
  };

  function squint(side: 'left' | 'right') {
    const { lids } = eyeSide(side);
    const out = zero();
    lids.upper.forEach((u, i) => {
      const gap = sub(L[u]!, L[lids.lower[i]!]!);
      out[lids.lower[i]!] = scale(gap, 0.25);
      out[u] = scale(gap, -0.08);
    });
    return push(out, UNDER_EYE[side], [0, mm(1.5), 0], mm(12), (j) => !lids.lower.includes(j));
  }
  function look(side: 'left' | 'right', yaw: number, pitch: number, lid: number) {
    const { lids } = eyeSide(side);
    const landmarks = lidPush(lids, lid, lid * 0.4);
    // The lids' skin drifts a little the way the eye turns.
    for (const i of [...lids.upper, ...lids.lower]) landmarks[i]![0] += Math.sin(yaw) * mm(1.5);
    return { landmarks, eyes: { [side]: [yaw, pitch] } };
  }
  function smile(side: 'left' | 'right', lift: number) {
    const out = push(zero(), corner(side), [outward(side) * mm(5), lift, -mm(3)], mm(24));
    return { landmarks: push(out, CHEEK[side], [0, mm(3), mm(1)], mm(20)) };
  }
  function press(side: 'left' | 'right') {
    const out = zero();
    push(out, UPPER_LIP.filter(onSide(side)), [0, -mm(1.5), -mm(1)], mm(6), isUpper);
    push(out, LOWER_LIP.filter(onSide(side)), [0, mm(1.5), -mm(1)], mm(6), isLower);
    return { landmarks: out };
  }
  function brow(indices: readonly number[], delta: Vec3) {
    // Brows move the forehead above them, never the lids below.
    const lids = new Set([
      ...LEFT_LIDS.upper,
      ...RIGHT_LIDS.upper,
      ...LEFT_LIDS.lower,
      ...RIGHT_LIDS.lower,
    ]);
    return push(zero(), indices, delta, mm(22), (j) => !lids.has(j));
  }

  return ARKIT_BLENDSHAPES.map((name) => ({ name, ...shapes[name]() }));
}
