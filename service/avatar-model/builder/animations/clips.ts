import type { AvatarAnimation, AvatarAnimationChannel, AvatarJoint } from '../../model.js';
import { nodeTransforms, resolvePose, X, Y, Z, type PoseSpec, type Turn } from './pose.js';

/**
 * The built-in clips, authored for the Mixamo skeleton in the bind pose's
 * model axes (the avatar faces +Z, its left is +X). A turn about +Z by a
 * negative angle lowers the left arm; the right side mirrors it.
 */

/** Arms hanging: upper arms 60° below the T-pose, forearms bent 20° forward, shoulders eased. */
export function armsDown(upperArm = 60, foreArm = 20): Turn[] {
  // The clavicles take a little of the drop, as real shoulders do; the arms the rest.
  const shoulder = 6;
  return [
    ['LeftShoulder', Z, -shoulder],
    ['RightShoulder', Z, shoulder],
    ['LeftArm', Z, -(upperArm - shoulder)],
    ['RightArm', Z, upperArm - shoulder],
    ['LeftForeArm', Y, -foreArm],
    ['RightForeArm', Y, foreArm],
    ...(['Left', 'Right'] as const).flatMap(relaxedHand),
  ];
}

/** How far each finger's joints curl in a relaxed hand: more towards the little finger. */
const RELAXED_CURL = { Index: 10, Middle: 14, Ring: 18, Pinky: 22 } as const;

/**
 * A relaxed hand: the fingers curl towards the palm, and the thumb, which
 * the T-pose points forward, swings towards the index finger, to lie along
 * it rather than stand off the hand like a peg.
 */
function relaxedHand(side: 'Left' | 'Right'): Turn[] {
  const sign = side === 'Left' ? 1 : -1;
  return [
    ...(['Index', 'Middle', 'Ring', 'Pinky'] as const).flatMap((finger): Turn[] =>
      ([1, 2, 3] as const).map((k): Turn => [
        `${side}Hand${finger}${k}`,
        Z,
        -sign * RELAXED_CURL[finger],
      ]),
    ),
    [`${side}HandThumb1`, Y, sign * 35],
    [`${side}HandThumb2`, Y, sign * 10],
  ];
}

/** The idle pose of full-body renders and the pose tests. */
export const IDLE_POSE: PoseSpec = { turns: armsDown() };

/** A walking pose: the left leg forward, the right behind, the arms swinging against them. */
export function walkPose(phase: 1 | -1, passing = false): PoseSpec {
  // phase 1: left leg forward. Turning a leg about −X swings the foot forward.
  const thigh = passing ? 0 : 24;
  const turns: Turn[] = [
    ...armsDown(66, passing ? 15 : 22),
    ['LeftUpLeg', X, -phase * thigh + (passing && phase === 1 ? -8 : 0)],
    ['RightUpLeg', X, phase * thigh + (passing && phase === -1 ? -8 : 0)],
    // The trailing knee bends (the shin swings back, a turn about +X).
    ['LeftLeg', X, passing ? (phase === 1 ? 40 : 4) : phase === 1 ? 4 : 18],
    ['RightLeg', X, passing ? (phase === -1 ? 40 : 4) : phase === -1 ? 4 : 18],
    ['LeftFoot', X, passing ? 0 : -phase * 8],
    ['RightFoot', X, passing ? 0 : phase * 8],
    // Arms swing opposite the legs.
    ['LeftArm', X, passing ? 0 : phase * 16],
    ['RightArm', X, passing ? 0 : -phase * 16],
    ['Spine', Y, passing ? 0 : -phase * 4],
  ];
  return { turns, hipsOffset: [0, passing ? 0.01 : -0.012, 0] };
}

/** The right hand raised beside the head, the forearm tipped by `sway` degrees. */
function wavePose(sway: number): PoseSpec {
  return {
    turns: [
      ...armsDown().filter(([bone]) => bone.startsWith('Left')),
      ['RightShoulder', Z, -10],
      ['RightArm', Z, -40],
      ['RightArm', Y, 15],
      ['RightForeArm', Z, -50 + sway],
      ['Head', Y, -6],
    ],
  };
}

function breathe(depth: number, headTurn: number): PoseSpec {
  return {
    turns: [
      ...armsDown(60 - depth, 20 + depth),
      ['Spine1', X, -depth],
      ['Spine2', X, -depth],
      ['Neck', X, depth],
      ['Head', Y, headTurn],
    ],
  };
}

interface ClipSpec {
  name: string;
  /** Seconds per key; the last key repeats the first so the clip loops. */
  step: number;
  keys: PoseSpec[];
}

export const CLIPS: readonly ClipSpec[] = [
  {
    name: 'idle',
    step: 1,
    keys: [breathe(0, 0), breathe(2, 4), breathe(0, 0), breathe(2, -4), breathe(0, 0)],
  },
  {
    name: 'wave',
    step: 0.3,
    keys: [wavePose(0), wavePose(25), wavePose(-10), wavePose(25), wavePose(-10), wavePose(0)],
  },
  {
    name: 'walk',
    step: 0.25,
    keys: [walkPose(1), walkPose(1, true), walkPose(-1), walkPose(-1, true), walkPose(1)],
  },
];

export const ANIMATION_NAMES: readonly string[] = CLIPS.map((c) => c.name);

/**
 * The clips for one skeleton as glTF animations: a rotation channel for
 * every joint a clip moves, and a translation channel for the hips when
 * they bob.
 */
export function builtInAnimations(joints: readonly AvatarJoint[]): AvatarAnimation[] {
  return CLIPS.map((clip) => {
    const keys = clip.keys.map((spec) => nodeTransforms(joints, resolvePose(joints, spec)));
    const rest = nodeTransforms(joints, resolvePose(joints, { turns: [] }));
    const channels: AvatarAnimationChannel[] = [];
    joints.forEach((_, i) => {
      const turned = keys.some((k) => k[i]!.rotation.some((v, c) => v !== rest[i]!.rotation[c]));
      if (!turned) return;
      channels.push({
        joint: i,
        path: 'rotation',
        values: Float32Array.from(keys.flatMap((k) => k[i]!.rotation)),
      });
    });
    const root = joints.findIndex((j) => j.parent < 0);
    if (clip.keys.some((k) => k.hipsOffset)) {
      channels.push({
        joint: root,
        path: 'translation',
        values: Float32Array.from(keys.flatMap((k) => k[root]!.translation)),
      });
    }
    return {
      name: clip.name,
      times: Float32Array.from(clip.keys.map((_, k) => k * clip.step)),
      channels,
    };
  });
}
