import type { ArkitBlendshape } from '../../shared/appearance/arkit-blendshapes.js';

/**
 * A short loop of facial expressions that shows off the face's ARKit blend
 * shapes: a blink, a look left and right, a smile, brows up, surprise with
 * an open jaw, a pucker, and back to rest. Keys are [time in seconds,
 * weights]; weights ease between keys.
 */
type Pose = Partial<Record<ArkitBlendshape, number>>;

const BLINK: Pose = { eyeBlinkLeft: 1, eyeBlinkRight: 1 };
const KEYS: readonly [number, Pose][] = [
  [0, {}],
  [0.4, {}],
  [0.5, BLINK],
  [0.62, {}],
  [1.1, { eyeLookOutLeft: 0.9, eyeLookInRight: 0.9 }],
  [1.7, { eyeLookInLeft: 0.9, eyeLookOutRight: 0.9 }],
  [2.2, {}],
  [2.8, { mouthSmileLeft: 1, mouthSmileRight: 1, cheekSquintLeft: 0.6, cheekSquintRight: 0.6 }],
  [3.4, { mouthSmileLeft: 1, mouthSmileRight: 1, cheekSquintLeft: 0.6, cheekSquintRight: 0.6 }],
  [
    3.9,
    {
      browInnerUp: 1,
      browOuterUpLeft: 0.8,
      browOuterUpRight: 0.8,
      eyeWideLeft: 0.7,
      eyeWideRight: 0.7,
    },
  ],
  [
    4.4,
    {
      browInnerUp: 1,
      browOuterUpLeft: 0.8,
      browOuterUpRight: 0.8,
      jawOpen: 0.8,
      eyeWideLeft: 0.7,
      eyeWideRight: 0.7,
    },
  ],
  [5.0, { mouthPucker: 1, mouthFunnel: 0.3 }],
  [5.5, { mouthPucker: 1, mouthFunnel: 0.3 }],
  [5.9, { eyeBlinkLeft: 1, mouthSmileLeft: 0.7 }],
  [6.3, {}],
  [7.0, {}],
];

export const EXPRESSION_LOOP_SECONDS = KEYS[KEYS.length - 1]![0];

const ease = (t: number) => t * t * (3 - 2 * t);

/** The blend-shape weights (0..1) at `seconds` into the loop; shapes not named are 0. */
export function expressionAt(seconds: number): Pose {
  const t =
    ((seconds % EXPRESSION_LOOP_SECONDS) + EXPRESSION_LOOP_SECONDS) % EXPRESSION_LOOP_SECONDS;
  let k = 1;
  while (k < KEYS.length - 1 && KEYS[k]![0] <= t) k++;
  const [t0, a] = KEYS[k - 1]!;
  const [t1, b] = KEYS[k]!;
  const f = ease(Math.min(1, Math.max(0, (t - t0) / Math.max(1e-6, t1 - t0))));
  const out: Pose = {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)]) as Set<ArkitBlendshape>) {
    const w = (a[name] ?? 0) * (1 - f) + (b[name] ?? 0) * f;
    if (w > 0) out[name] = w;
  }
  return out;
}
