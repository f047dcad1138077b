import type { BodyTemplate } from '../body-template.js';
import { boneIndex } from '../skeleton.js';
import { smoothstep } from '../vec3.js';

/** The share of a garment's ease kept where the skin folds under the arm. */
const FOLD_EASE = 0.1;
/** Arm weight (from 0, or from 1) over which the skin counts as fully in the fold. */
const SHARE_FADE = 0.1;
/** Height (m) below the shoulder joint over which the fold fades in. */
const HEIGHT_FADE = 0.01;

const factors = new WeakMap<BodyTemplate, Float32Array>();

/**
 * The share of a garment's ease kept over each body vertex: all of it but
 * under the armpits, where the skin's weights pass from the arm to the
 * shoulder. With the arms lowered that skin closes into a fold, and cloth
 * standing a full ease off it (a centimetre or two) is an offset surface
 * tighter than its own radius: it folds through itself and through the
 * cloth across the fold, and the skin comes out through both. Laid a tenth
 * as far off, the cloth follows the fold as the skin does.
 */
export function foldEase(t: BodyTemplate): Float32Array {
  let factor = factors.get(t);
  if (factor) return factor;
  const body = t.body;
  const arms = new Set([boneIndex('LeftArm'), boneIndex('RightArm')]);
  const below = t.skeleton.joints.LeftArm[1];
  factor = new Float32Array(body.vertexCount);
  for (let v = 0; v < body.vertexCount; v++) {
    let arm = 0;
    for (let k = 0; k < 4; k++)
      if (arms.has(body.joints[4 * v + k]!)) arm += body.weights[4 * v + k]!;
    const between = Math.max(0, Math.min(1, arm / SHARE_FADE, (1 - arm) / SHARE_FADE));
    const under = smoothstep(below, below - HEIGHT_FADE, body.position(v)[1]);
    factor[v] = 1 - (1 - FOLD_EASE) * between * under;
  }
  factors.set(t, factor);
  return factor;
}
