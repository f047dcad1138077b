import { skinUv } from './body-mesh.js';
import { neckZ } from './body-skeleton.js';
import type { BodyTemplate } from './body-template.js';
import type { NeckSize } from './head-neck.js';
import type { MeshBuilder } from './mesh-builder.js';
import type { Proportions } from './proportions.js';
import { smoothstep, type Vec3 } from './vec3.js';

/**
 * From this far (metres) above the neck's base the body's neck takes the
 * photographed size in full; below it the neck eases back into the body's
 * own, so the shoulders and the neck's base are as they were. What lies on
 * the neck (collars, hair) moves with it (`fitToNeck`).
 */
const EASE: [number, number] = [0.01, 0.07];
/** Only skin this close to the neck's axis (in neck radii) is the neck: never the arms. */
const REACH = 2.2;

/**
 * Above the chin the body's neck is inside the head: its size shows nowhere,
 * and eased back to the body's own there it stays inside a head that is
 * turned or scaled down by its bone. The photographed size is read below the
 * chin and applies there.
 */
const INSIDE_HEAD = 0.03;

/**
 * How much higher than the chin (in head heights) the back of the neck runs
 * on as it does below, before easing back into the body's own inside the
 * head: eased from the chin's height, as at the front, its back ran in at
 * 45° and the back of the skull came down onto it at about 90°, a crease
 * across the nape (with the skull's underside in shadow over it). It fades
 * out towards the neck's sides between these angles round the axis from the
 * back's middle.
 */
const NAPE_RISE = 0.25;
const NAPE_WHOLE_TO = (60 * Math.PI) / 180;
const NAPE_GONE_AT = (95 * Math.PI) / 180;

/** How far (m) above the chin the back of the neck is held (`NAPE_RISE`). */
export function napeRise(p: Proportions): number {
  return NAPE_RISE * p.headHeight;
}

/**
 * How far forward (metres per metre of height) the back of a deepened neck
 * at least leans from where the fit begins. The body's neck narrows from its
 * base up while the fit eases in, so a deeper neck grown in full there bulged
 * behind, a knob 2–5 mm further back than the neck's base below it, in every
 * side view; a neck's back runs up and forward from the shoulders to the skull.
 */
const BACK_LEAN = 0.1;
/** The spacing (metres) of the heights at which the body's back of the neck is read. */
const PROFILE_STEP = 0.002;

/**
 * The body with its neck widened or narrowed to the photographed one: a
 * copy (the body itself is made once per shape and age), with the same
 * vertices and triangles, each neck vertex moved away from or towards the
 * neck's axis, sideways and front to back by their own factors. Above the
 * chin, behind the axis, the back of the neck is carried on up into the
 * skull (`NAPE_RISE`), with no photographed size (`null`) too.
 */
export function fitNeck(template: BodyTemplate, neck: NeckSize | null): MeshBuilder {
  return moved(template.body, neckFit(template, neck ?? ownNeck(template)));
}

/** The body's own neck as a photographed size: fitted to it, only the nape is held. */
function ownNeck(template: BodyTemplate): NeckSize {
  const r = template.proportions.neckRadius;
  return { halfWidth: r, halfDepth: r, behind: 0 };
}

/**
 * A copy of something laid on the body (a garment, hair) moved as the fitted
 * neck moved the skin under it, so a collar or hair lying on the neck stays
 * outside it. Above the chin it lies on the head, not the neck: the move
 * fades out there.
 */
export function fitToNeck(
  mesh: MeshBuilder,
  template: BodyTemplate,
  neck: NeckSize | null,
): MeshBuilder {
  if (!neck) return mesh;
  const { chinY } = template.proportions;
  return moved(
    mesh,
    // Garments and hair lie on the head above the chin, the nape's included.
    neckFit(template, neck, (y) => 1 - smoothstep(chinY - 0.04, chinY, y), false),
  );
}

/** A copy with the fit applied; the mesh itself when the fit moves none of it (shoes, glasses). */
function moved(mesh: MeshBuilder, fit: ReturnType<typeof neckFit>): MeshBuilder {
  let any = false;
  for (let v = 0; v < mesh.vertexCount && !any; v++) any = fit.moves(mesh.position(v));
  if (!any) return mesh;
  const out = mesh.movedTo(mesh.positions.slice());
  for (let v = 0; v < out.vertexCount; v++) {
    const q = out.position(v);
    if (fit.moves(q)) out.setPosition(v, fit.forward(q));
  }
  return out;
}

/**
 * The fitted body's skin as the head is joined to it, both read at the point
 * the fit moved a point from (one fit for both):
 * - `distance`: the signed distance from it, near enough: the template's
 *   (exact on the skin itself, since the fit only slides points sideways and
 *   front to back);
 * - `skinUv`: its texture coordinates, the template's (`skinUv`, which its
 *   vertices keep through the fit).
 */
export function fittedSkin(
  template: BodyTemplate,
  neck: NeckSize | null,
): { distance: (q: Vec3, reach: number) => number; skinUv: (q: Vec3) => [number, number] } {
  const fit = neckFit(template, neck ?? ownNeck(template));
  const unfit = (q: Vec3) => {
    const back = fit.backward(q);
    return fit.moves(back) ? back : q;
  };
  return {
    distance: (q, reach) => template.field.at(unfit(q), reach),
    skinUv: (q) => skinUv(unfit(q)),
  };
}

function neckFit(
  template: BodyTemplate,
  neck: NeckSize,
  fade: (y: number) => number = (y) =>
    1 - smoothstep(template.proportions.chinY, template.proportions.chinY + INSIDE_HEAD, y),
  holdNape = true,
) {
  const p = template.proportions;
  const fx = neck.halfWidth / p.neckRadius;
  const fz = neck.halfDepth / p.neckRadius;
  const frontScale = (neck.halfDepth - neck.behind) / p.neckRadius;
  const nz = neckZ(p);
  const from = p.neckBaseY + EASE[0];
  const share = (y: number) => smoothstep(from, p.neckBaseY + EASE[1], y) * fade(y);
  const back = backOfNeck(template);
  // Behind the axis a deeper neck grows only as far as keeps its back leaning forward.
  const backScale = (y: number) => {
    const full = 1 + (fz - 1) * share(y);
    if (fz <= 1) return full;
    const own = nz - back(y);
    const allowed = nz - (back(from) + BACK_LEAN * (y - from));
    return own > 0 ? Math.min(full, Math.max(1, allowed / own)) : full;
  };
  // Above the chin the back of the neck runs on up from where it is at the chin, leaning as
  // it did below, into the back of the skull (`nape-fillet.ts`).
  const { chinY } = p;
  const atChin = nz - (nz - back(chinY)) * backScale(chinY);
  const holdTo = chinY + napeRise(p);
  const held = (q: Vec3) =>
    holdNape && q[2] < nz && q[1] > chinY
      ? shareBehindNeck(q, nz) * (1 - smoothstep(holdTo, holdTo + INSIDE_HEAD, q[1]))
      : 0;
  // Front and back halves are half-ellipses of different depths: both meet the sides upright.
  // The front is as deep as the photographed neck's front: its middle lies `behind` the axis.
  const depthScale = (q: Vec3) => {
    const y = q[1];
    if (q[2] >= nz) return 1 + (frontScale - 1) * share(y);
    const scale = backScale(y);
    const hold = held(q);
    const own = nz - back(y);
    if (hold <= 0 || own <= 0) return scale;
    const target = (nz - (atChin + BACK_LEAN * (y - chinY))) / own;
    return target > scale ? scale + (target - scale) * hold : scale;
  };
  const sideScale = (y: number) => 1 + (fx - 1) * share(y);
  return {
    moves: (q: Vec3) =>
      (share(q[1]) > 0 || held(q) > 0) && Math.hypot(q[0], q[2] - nz) <= REACH * p.neckRadius,
    forward: (q: Vec3): Vec3 => [q[0] * sideScale(q[1]), q[1], nz + (q[2] - nz) * depthScale(q)],
    // How deep a point moves depends on where round the neck it is, which the move shifts a
    // little: read at the moved point, then at the point that gives, three times over.
    backward: (q: Vec3): Vec3 => {
      let at = q;
      for (let i = 0; i < 3; i++)
        at = [q[0] / sideScale(q[1]), q[1], nz + (q[2] - nz) / depthScale(at)];
      return at;
    },
  };
}

/**
 * 1 behind the neck's axis (at z = `axisZ`), 0 from its sides forward, by
 * the angle round it from the back's middle: where the back of the neck,
 * not the jaw, meets the head.
 */
export function shareBehindNeck(q: Vec3, axisZ: number): number {
  const fromBack = Math.abs(Math.atan2(q[0], axisZ - q[2]));
  return 1 - smoothstep(NAPE_WHOLE_TO, NAPE_GONE_AT, fromBack);
}

const backProfiles = new WeakMap<BodyTemplate, (y: number) => number>();

/**
 * The template's back of the neck: the skin's z on the body's midline at a
 * height, read off its field (bisected between the neck's axis and 20 cm
 * behind it) every `PROFILE_STEP` from the neck's base to the head's inside,
 * and interpolated between.
 */
function backOfNeck(template: BodyTemplate): (y: number) => number {
  const cached = backProfiles.get(template);
  if (cached) return cached;
  const p = template.proportions;
  const nz = neckZ(p);
  const bottom = p.neckBaseY;
  const rows = Math.ceil((p.chinY + napeRise(p) + INSIDE_HEAD + 0.01 - bottom) / PROFILE_STEP) + 1;
  const zs = Array.from({ length: rows }, (_, k) => {
    const y = bottom + k * PROFILE_STEP;
    let inside = nz;
    let outside = nz - 0.2;
    for (let i = 0; i < 30; i++) {
      const mid = (inside + outside) / 2;
      if (template.field.at([0, y, mid]) < 0) inside = mid;
      else outside = mid;
    }
    return (inside + outside) / 2;
  });
  const profile = (y: number) => {
    const t = Math.min(Math.max((y - bottom) / PROFILE_STEP, 0), rows - 1);
    const k = Math.min(Math.floor(t), rows - 2);
    return zs[k]! + (zs[k + 1]! - zs[k]!) * (t - k);
  };
  backProfiles.set(template, profile);
  return profile;
}
