import { onArm, type BodyRegion } from '../body-mesh.js';
import { shoulderJoint } from '../body-skeleton.js';
import type { BodyTemplate } from '../body-template.js';
import { smoothNormals, type MeshBuilder } from '../mesh-builder.js';
import { blendedInfluences, setNormalised } from '../skin-weights.js';
import { foldEase } from './fold-ease.js';
import { addScaled, distance, lerp, normalize, smoothstep, type Vec3 } from '../vec3.js';

/**
 * A garment cut from the skin: which parts of the body it may cover and how
 * far it stands off them (m), between its edges: a hem below, a waistband
 * above, sleeve ends across the arms (|x| in the T-pose: the torso is never
 * cut there), a round neckline and round armholes.
 */
export interface GarmentCut {
  ease: (region: BodyRegion) => number | null;
  bottom?: number;
  top?: number;
  sleeve?: number;
  neckline?: Neckline;
  /**
   * Round armholes (a sleeveless top's): the skin inside this sphere stays
   * bare, and its mirror image across x = 0; `centre` is the left one's.
   */
  armhole?: { centre: Vec3; radius: number };
  /**
   * The band round a round neckline and the armholes: over the last `width`
   * (m) before the edge the ease falls to `ease`, so the edge lies close on
   * the skin. At the garment's own ease, the gap between edge and skin
   * showed the cloth's inside, a dark wedge either side of the neck in every
   * front view.
   */
  band?: { width: number; ease: number };
  /**
   * A ribbed band at the hem: over the last `width` (m) above it the cloth
   * is drawn in from where it hangs to `ease` off the skin, as a hoodie's
   * waistband gathers it.
   */
  hemBand?: { width: number; ease: number };
  /** Moves a cloth point (its skin vertex's region, where the ease put it) where it hangs instead. */
  hang?: (region: BodyRegion, cloth: Vec3) => Vec3;
  /**
   * Where the skin faces up (the tops of the shoulders, and the arms' within
   * SLEEVE_RESTS_FOR of the shoulder joint) the cloth rests on it: its ease
   * falls to this (m) as the skin's normal turns upward.
   */
  resting?: number;
}

/**
 * The up component of the skin's normal from which cloth begins to rest on
 * it, and from which it rests fully: a top stood its whole ease (2 cm on the
 * hoodie) above the shoulders, and with the arms lowered read as padded.
 */
const RESTS: [number, number] = [0.5, 0.9];
/**
 * The forward component of the skin's normal from which the cloth no longer
 * rests, and by which it stands off in full: under the neck the upper chest
 * faces up and forward, and a hoodie's front resting there sank below its
 * cowl, a ledge that buried the drawstrings' tops.
 */
const HANGS_IN_FRONT: [number, number] = [0.2, 0.5];
/** How far (m) out along the arm from the shoulder joint a sleeve still rests on it. */
const SLEEVE_RESTS_FOR = 0.06;

/**
 * A crew neck: the skin inside an upright elliptic cylinder round x = 0,
 * z = `z` stays bare, down to `front` before its axis and `back` behind it.
 * The cylinder reaches `radius` to the sides and in front, and `backRadius`
 * behind: the back of the neck lies further from that forward axis than its
 * sides do, and a round cut left the shirt climbing the back of the neck
 * (with the skin showing through a hole in it). Cut so, the edge follows
 * the base of the neck round, rising over the trapezius and dipping at the
 * front, where a level cut would bare the shoulders.
 */
export interface Neckline {
  z: number;
  radius: number;
  backRadius: number;
  front: number;
  back: number;
  /** How far the back's edge rises from the middle to the sides (at `radius` off it). */
  backRise: number;
}

/** Where q lies across the neckline's cylinder: below 1 inside it, 1 on it. */
function acrossNeckline(q: Vec3, n: Neckline): number {
  const dz = q[2] - n.z;
  return Math.hypot(q[0] / n.radius, dz / (dz >= 0 ? n.radius : n.backRadius));
}

/** How high the neckline's edge runs at q's place round its axis. */
function necklineHeight(q: Vec3, n: Neckline): number {
  return q[2] >= n.z ? n.front : n.back + n.backRise * (q[0] / n.radius) ** 2;
}

function pastNeckline(q: Vec3, n: Neckline | undefined): boolean {
  if (n === undefined) return false;
  return q[1] > necklineHeight(q, n) && acrossNeckline(q, n) < 1;
}

/**
 * About how far (m) a covered point lies from the bare region past the
 * neckline: below the edge's height and out from its cylinder, combined (0
 * past it). The skin runs near upright under the front and back of the edge
 * and near level under its sides, so this is close to the way along it.
 */
function fromNeckline(q: Vec3, n: Neckline): number {
  const below = Math.max(0, necklineHeight(q, n) - q[1]);
  const out = Math.max(0, acrossNeckline(q, n) - 1) * (q[2] >= n.z ? n.radius : n.backRadius);
  return Math.hypot(below, out);
}

/** How much of the hem band's pull q takes: 1 at the hem, 0 from the band's width above it on. */
function inHemBand(q: Vec3, cut: GarmentCut): number {
  const band = cut.hemBand;
  if (band === undefined || cut.bottom === undefined) return 0;
  return 1 - smoothstep(0, band.width, q[1] - cut.bottom);
}

/** How far (0..1) cloth rests on skin whose normal has these up and forward components. */
function restsOn(up: number, forward: number): number {
  return smoothstep(RESTS[0], RESTS[1], up) * (1 - smoothstep(...HANGS_IN_FRONT, forward));
}

/**
 * The ease at q: the garment's, falling to the band's near a neckline's or an
 * armhole's edge, and to the hem band's over it.
 */
function easeNearEdges(q: Vec3, ease: number, cut: GarmentCut): number {
  const hemBand = cut.hemBand;
  if (hemBand) ease += (hemBand.ease - ease) * inHemBand(q, cut);
  const band = cut.band;
  if (band === undefined) return ease;
  const from = Math.min(
    cut.neckline ? fromNeckline(q, cut.neckline) : Infinity,
    cut.armhole ? Math.max(0, fromCentre(q, cut.armhole) - cut.armhole.radius) : Infinity,
  );
  return Math.min(ease, band.ease + (ease - band.ease) * smoothstep(0, band.width, from));
}

/** How far q lies from the centre of the armhole on its side. */
function fromCentre(q: Vec3, armhole: NonNullable<GarmentCut['armhole']>): number {
  const c = armhole.centre;
  return Math.hypot(Math.abs(q[0]) - c[0], q[1] - c[1], q[2] - c[2]);
}

function pastArmhole(q: Vec3, armhole: GarmentCut['armhole']): boolean {
  return armhole !== undefined && fromCentre(q, armhole) < armhole.radius;
}

/**
 * How far along the skin from `bare` (past a curved edge: the neckline, an
 * armhole) to `covered` the edge runs: where the line between them leaves
 * the bare region, by bisection. Moving the corner there keeps it on the
 * skin, so the neckline runs smooth round a sloping shoulder and along the
 * back, where keeping the corner left a saw-tooth.
 */
function crossing(bare: Vec3, covered: Vec3, past: (q: Vec3) => boolean): number {
  let inside = 0;
  let outside = 1;
  for (let i = 0; i < CROSSING_STEPS; i++) {
    const t = (inside + outside) / 2;
    if (past(lerp(bare, covered, t))) inside = t;
    else outside = t;
  }
  return outside;
}

/**
 * How far along the skin from `past` (beyond a level edge, the hem or the
 * waistband) to `kept` the edge's height lies (0 when `past` is not beyond
 * one). Pulled straight up or down onto the edge instead, a corner on a
 * slope (the instep under a trouser's hem) stood out from the skin by the
 * slope's run, a tooth in the hem.
 */
function levelCrossing(past: Vec3, kept: Vec3, bottom: number, top: number): number {
  const edge = past[1] < bottom ? bottom : past[1] > top ? top : null;
  if (edge === null || kept[1] === past[1]) return 0;
  return Math.min(1, Math.max(0, (edge - past[1]) / (kept[1] - past[1])));
}

/** Halvings that find a curved edge along a triangle's side: 2⁻¹² of a 2 cm edge is 5 µm. */
const CROSSING_STEPS = 12;

const normalsByTemplate = new WeakMap<BodyTemplate, Float32Array>();

function bodyNormals(t: BodyTemplate): Float32Array {
  let normals = normalsByTemplate.get(t);
  if (!normals) {
    normals = smoothNormals(t.body.positions, t.body.indices, false);
    normalsByTemplate.set(t, normals);
  }
  return normals;
}

/**
 * Appends a garment cut from the body's own surface: every body triangle
 * whose three corners the cut keeps, each corner moved out along the skin's
 * normal by the cut's ease (a tenth of it in the armpits and crotch, `foldEase`),
 * then, if the cut says how the cloth hangs (`hang`), to where it hangs,
 * with the body's texture coordinates and skin weights. Skin and cloth share
 * their weights vertex for vertex, so in any pose the cloth stays the same
 * distance outside the skin it covers (except where the skin itself folds
 * into itself).
 */
export function appendOffsetGarment(mesh: MeshBuilder, t: BodyTemplate, cut: GarmentCut): void {
  const body = t.body;
  const normals = bodyNormals(t);
  const bottom = cut.bottom ?? -Infinity;
  const top = cut.top ?? Infinity;
  const sleeve = cut.sleeve ?? Infinity;
  const fold = foldEase(t);
  // Named apart: inside vertexFor `t` is the corner's share of the way to the edge it crosses.
  const regions = t.regions;
  const shoulderX = shoulderJoint(t.proportions)[0];
  const ease = t.regions.map((r, v) => {
    const e = cut.ease(r);
    if (e === null) return null;
    const q = body.position(v);
    // On the arms only over the shoulder: rested on its top all along in the T-pose, a sleeve
    // would hug the arm's outside once the arm is lowered.
    const along = onArm(r) ? 1 - smoothstep(0, SLEEVE_RESTS_FOR, Math.abs(q[0]) - shoulderX) : 1;
    const rested =
      cut.resting === undefined || cut.resting >= e
        ? e
        : e + (cut.resting - e) * along * restsOn(normals[3 * v + 1]!, normals[3 * v + 2]!);
    return easeNearEdges(q, rested * fold[v]!, cut);
  });
  const within = (v: number) => {
    const q = body.position(v);
    return (
      ease[v] !== null &&
      q[1] >= bottom &&
      q[1] <= top &&
      (Math.abs(q[0]) <= sleeve || !onArm(regions[v]!)) &&
      !pastNeckline(q, cut.neckline) &&
      !pastArmhole(q, cut.armhole)
    );
  };
  // Each kept skin vertex's copy, made into a mesh vertex only once the welding has
  // said which copies are drawn: a welded-away copy left in the mesh is a vertex of no
  // face (its normal arbitrary, and exported all the same).
  const copy = new Int32Array(body.vertexCount).fill(-1);
  const copies: { position: Vec3; uv: [number, number]; from: [number, number][] }[] = [];
  const vertexFor = (v: number, inside: number) => {
    if (copy[v]! >= 0) return copy[v]!;
    const atNeckline = pastNeckline(body.position(v), cut.neckline);
    const t = atNeckline
      ? crossing(body.position(v), body.position(inside), (q) => pastNeckline(q, cut.neckline))
      : pastArmhole(body.position(v), cut.armhole)
        ? crossing(body.position(v), body.position(inside), (q) => pastArmhole(q, cut.armhole))
        : levelCrossing(body.position(v), body.position(inside), bottom, top);
    const n = normalize(
      lerp(
        [normals[3 * v]!, normals[3 * v + 1]!, normals[3 * v + 2]!],
        [normals[3 * inside]!, normals[3 * inside + 1]!, normals[3 * inside + 2]!],
        t,
      ),
    );
    const eased = addScaled(
      lerp(body.position(v), body.position(inside), t),
      n,
      ease[v] ?? ease[inside]!,
    );
    const hung = cut.hang ? cut.hang(regions[v]!, eased) : eased;
    const q = lerp(hung, eased, inHemBand(body.position(v), cut));
    // A corner past an edge is pulled back onto it, so the edge runs straight. One past a
    // level edge lies on it exactly: eased along a normal that tilts up (the ankle's, under a
    // trouser hem) it rose by up to half the ease, and the hem ran crooked.
    const skinY = body.position(v)[1];
    const straight: Vec3 = [
      onArm(regions[v]!) ? Math.sign(q[0]) * Math.min(Math.abs(q[0]), sleeve) : q[0],
      skinY < bottom ? bottom : skinY > top ? top : Math.min(top, Math.max(bottom, q[1])),
      q[2],
    ];
    const uv = lerp(
      [body.uvs[2 * v]!, body.uvs[2 * v + 1]!, 0],
      [body.uvs[2 * inside]!, body.uvs[2 * inside + 1]!, 0],
      t,
    );
    // A corner moved onto a straight edge moves with the skin inside the edge:
    // past a sleeveless top's armhole the skin is the arm's, and cloth on the chest that
    // followed the arm would flap out over the shoulder when the arm comes down. One
    // moved along the skin to the neckline moves as the skin it was moved to.
    const from: [number, number][] = within(v)
      ? [[v, 1]]
      : atNeckline
        ? [
            [v, 1 - t],
            [inside, t],
          ]
        : [[inside, 1]];
    copy[v] = copies.length;
    copies.push({ position: straight, uv: [uv[0], uv[1]], from });
    return copy[v]!;
  };
  const idx = body.indices;
  const kept: [number, number, number][] = [];
  for (let i = 0; i < idx.length; i += 3) {
    const corners = [idx[i]!, idx[i + 1]!, idx[i + 2]!];
    const inside = corners.filter(within);
    // A triangle across an edge is kept and straightened; one the region leaves out is not.
    if (inside.length === 0 || corners.some((v) => ease[v] === null)) continue;
    kept.push(corners.map((v) => vertexFor(v, inside[0]!)) as [number, number, number]);
  }
  const moved = new Set<number>();
  for (let v = 0; v < body.vertexCount; v++) if (copy[v]! >= 0 && !within(v)) moved.add(copy[v]!);
  const weld = weldedCorners((i) => copies[i]!.position, kept, moved);
  const made = new Map<number, number>();
  const drawn = (i: number) => {
    let vertex = made.get(i);
    if (vertex === undefined) {
      const c = copies[i]!;
      vertex = mesh.vertex(c.position, c.uv);
      setNormalised(mesh, vertex, blendedInfluences(body, c.from));
      made.set(i, vertex);
    }
    return vertex;
  };
  for (const corners of kept) {
    const [a, b, c] = corners.map(weld) as [number, number, number];
    if (a !== b && b !== c && c !== a) mesh.triangle(drawn(a), drawn(b), drawn(c));
  }
}

/**
 * Corners of the garment closer than this (m) along a triangle's side are
 * one corner: a skin vertex moved to the neckline can land next to one that
 * lies just inside it (or another moved there), and the body's skin has a
 * few slivers of its own (0.4 mm at a small child's neck), which the
 * neckband's small ease leaves as they are. The sliver between them stood
 * at any angle, its normal flipping with a millimetre's movement.
 */
const WELD = 0.002;

/**
 * The corner each garment vertex is drawn with: a corner joined to another
 * by a triangle's side shorter than `WELD` becomes one with it (with the one
 * not moved onto an edge, if either is), so the slivers between them
 * collapse and are left out.
 */
function weldedCorners(
  position: (corner: number) => Vec3,
  triangles: readonly (readonly [number, number, number])[],
  moved: ReadonlySet<number>,
): (v: number) => number {
  const parent = new Map<number, number>();
  const find = (v: number): number => {
    let root = v;
    while (parent.has(root)) root = parent.get(root)!;
    return root;
  };
  for (const corners of triangles)
    for (let k = 0; k < 3; k++) {
      const a = corners[k]!;
      const b = corners[(k + 1) % 3]!;
      if (distance(position(a), position(b)) >= WELD) continue;
      const [ra, rb] = [find(a), find(b)];
      // A corner left where the skin put it stays; a moved one joins it.
      if (ra !== rb) {
        if (moved.has(ra)) parent.set(ra, rb);
        else parent.set(rb, ra);
      }
    }
  return find;
}
