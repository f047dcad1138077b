import type { Vec3 } from '../vec3.js';

/**
 * A cloth point moved straight out from an axis, across it, until it lies
 * `radius` from it: the point itself when it already lies that far out (or
 * on the axis). `across` names the two coordinates the axis runs across
 * ([0, 2] for an upright axis, [1, 2] for the T-pose's level arms), and
 * `centre` is where the axis crosses them.
 */
export function outToRadius(
  cloth: Vec3,
  across: readonly [number, number],
  centre: readonly [number, number],
  radius: number,
): Vec3 {
  const [i, j] = across;
  const di = cloth[i]! - centre[0];
  const dj = cloth[j]! - centre[1];
  const off = Math.hypot(di, dj);
  if (off >= radius || off < 1e-6) return cloth;
  const out: Vec3 = [cloth[0], cloth[1], cloth[2]];
  out[i] = centre[0] + (di * radius) / off;
  out[j] = centre[1] + (dj * radius) / off;
  return out;
}
