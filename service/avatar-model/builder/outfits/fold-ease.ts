import type { BodyTemplate } from '../body-template.js';
import { boneIndex } from '../skeleton.js';
import { smoothstep } from '../vec3.js';

/** The share of a garment's ease kept where the skin folds under the arm or in the crotch. */
const FOLD_EASE = 0.1;
/** Arm weight (from 0, or from 1) over which the skin counts as fully in the armpit's fold. */
const SHARE_FADE = 0.1;
/**
 * The lesser thigh's weight over which the skin passes into the crotch's
 * fold: a strip of 2–3 cm either side of the middle. From a tenth of it the
 * strip ran over the buttocks and down the inner thighs, and trousers lay
 * skin-tight there for nothing.
 */
const CROTCH_SHARE = [0.2, 0.35] as const;
/** Height (m) below the shoulder joint over which the armpit's fold fades in. */
const HEIGHT_FADE = 0.01;

const factors = new WeakMap<BodyTemplate, Float32Array>();

/**
 * The share of a garment's ease kept over each body vertex: all of it but
 * in the folds, under the armpits, where the skin's weights pass from the arm
 * to the shoulder, and in the crotch, where they pass from one thigh to the
 * other. With the arms lowered, or the legs apart in a stride, that skin
 * closes into a fold, and cloth standing a full ease off it (a centimetre or
 * two) is an offset surface tighter than its own radius: it folds through
 * itself and through the cloth across the fold, and the skin comes out
 * through both. Laid a tenth as far off, the cloth follows the fold as the
 * skin does.
 */
export function foldEase(t: BodyTemplate): Float32Array {
  let factor = factors.get(t);
  if (factor) return factor;
  const body = t.body;
  const weightOn = (v: number, bones: readonly number[]) => {
    let sum = 0;
    for (let k = 0; k < 4; k++)
      if (bones.includes(body.joints[4 * v + k]!)) sum += body.weights[4 * v + k]!;
    return sum;
  };
  const inFold = (share: number) =>
    Math.max(0, Math.min(1, share / SHARE_FADE, (1 - share) / SHARE_FADE));
  const arms = [boneIndex('LeftArm'), boneIndex('RightArm')];
  const left = [boneIndex('LeftUpLeg')];
  const right = [boneIndex('RightUpLeg')];
  const below = t.skeleton.joints.LeftArm[1];
  factor = new Float32Array(body.vertexCount);
  for (let v = 0; v < body.vertexCount; v++) {
    const armpit =
      inFold(weightOn(v, arms)) * smoothstep(below, below - HEIGHT_FADE, body.position(v)[1]);
    // Both thighs pulling on the skin: the crease between the legs.
    const crotch = smoothstep(
      CROTCH_SHARE[0],
      CROTCH_SHARE[1],
      Math.min(weightOn(v, left), weightOn(v, right)),
    );
    factor[v] = 1 - (1 - FOLD_EASE) * Math.max(armpit, crotch);
  }
  factors.set(t, factor);
  return factor;
}
