import { project } from './affine-camera.js';
import { boundaryLoops } from './body-stitch.js';
import { findEarInSidePhoto, type SideEar } from './head-ears-side.js';
import { cropMask } from './head-silhouette.js';
import type { HeadShape } from './head-shape.js';
import type { Rgb } from './colour.js';
import { SKIN_FINISH, solidMaterial, texturedMaterial } from './materials.js';
import { MeshBuilder, smoothNormals } from './mesh-builder.js';
import type { Part } from './part.js';
import { SUBJECT_MASK_SHRINK, type CropRect, type PhotoView } from './photo-views.js';
import { jpegTexture } from './texture-image.js';
import { add, distance, dot, lerp, smoothstep, sub, vec3At, type Vec3 } from './vec3.js';
import { planeExtent } from './plane-extent.js';
import { nearestVertexIndex } from './nearest-vertex.js';

/** Rows (bottom to top) and columns (attachment to rim) of each ear's surface. */
const ROWS = 12;
export const COLUMNS = 7;
/** Vertices of each of an ear's two sheets: the front's come first, then the back's, then the rim's crest. */
export const SHEET_VERTICES = (ROWS + 1) * (COLUMNS + 1);
/** An ear stands out from the skull by this angle, and leans back by TILT. */
const PROTRUSION = (22 * Math.PI) / 180;
const TILT = (15 * Math.PI) / 180;

/**
 * Both ears as real geometry: a closed shell (front, back and a rounded rim,
 * open only at its root), cupped, its rim rolled, oval in profile (earSpan),
 * attached to the skull behind the face's edge where the turned photo that
 * sees that side shows the ear, as tall and as long as it shows it, standing
 * out as far as the frontal outline shows (from eyebrow height to the base
 * of the nose, as ears are, when no photo shows it), and textured from that
 * turned photo (the crop itself, projected with its levelled camera); the
 * back wears plain skin. No part but its root lies inside the head, and the
 * root does (seatOnHead; `normals`: the head's). Canonical frame, before the
 * head is moved into place. Also says where in which crop each ear was read,
 * so the skull's texture can leave it out.
 */
export async function buildEars(
  points: readonly Vec3[],
  head: MeshBuilder,
  shape: HeadShape,
  views: readonly PhotoView[],
  correct: (rgb: Uint8Array) => void,
  skin: Rgb,
  normals: Float32Array = smoothNormals(head.positions, head.indices),
): Promise<BuiltEars> {
  const fallback = solidMaterial('EarSkin', skin, SKIN_FINISH);
  const faceHeight = distance(points[10]!, points[152]!);
  const frontal = views.find((v) => v.name === 'frontal');
  const parts: Part[] = [];
  const photographed: PhotographedEar[] = [];
  for (const side of [1, -1] as const) {
    const edge = points[side > 0 ? 454 : 234]!;
    const halfWidth = headHalfWidth(head, shape, side);
    const seen = frontal ? measureEar(points, halfWidth, frontal, side) : null;
    // Its camera is levelled with the frontal one already (levelledViews in photo-views.ts).
    const view = bestView(views, [side, 0, 0]);
    // The turned photo that sees this side shows the ear's height and where it starts.
    const profile = view ? findEarInSidePhoto(points, view, side) : null;
    // The turned photo tells the ear's size; where the frontal outline shows the ear, it tells
    // the height best (the turned camera's pitch is the less certain), so the ear is centred there.
    // Without an ear in any photo (hair over it, a busy backdrop): brow to nose base, as ears are.
    const centre = seen
      ? (seen.top + seen.bottom) / 2
      : profile
        ? (profile.top + profile.bottom) / 2
        : null;
    const size = profile ? profile.top - profile.bottom : seen ? seen.top - seen.bottom : null;
    const top = centre !== null && size !== null ? centre + size / 2 : points[105]![1];
    const bottom =
      centre !== null && size !== null ? centre - size / 2 : points[2]![1] - 0.04 * faceHeight;
    const height = top - bottom;
    const rootAt = (y: number) =>
      (profile?.front ?? edge[2] - 0.13 * faceHeight) - (y - bottom) * Math.tan(TILT);
    // Where the ear joins the head, sideways: on the skull, never inside the face's edge.
    const rootX = (y: number, z: number) => Math.max(halfWidth(y, z) * 0.97, Math.abs(edge[0]));
    // The photo saw the front edge on the plane through the face's edge; a root further out
    // showed further back than it is.
    const rootOffset = profile
      ? profile.shift * (rootX(bottom, rootAt(bottom)) - Math.abs(profile.plane))
      : 0;
    const zAt = (y: number) => rootAt(y) + rootOffset;
    // The rim's reach at mid-height: there the ear stands out most in the frontal photo.
    const middle = bottom + height / 2;
    const protrusionFor = (width: number) =>
      seen
        ? Math.asin(
            Math.min(
              Math.sin(MAX_PROTRUSION),
              Math.max(
                Math.sin(MIN_PROTRUSION),
                (seen.outer - rootX(middle, zAt(middle))) / (width * earSpan(0.5).back),
              ),
            ),
          )
        : PROTRUSION;
    // Width and protrusion pin each other down: the frontal photo sees how far the rim stands
    // out, the turned one how far back it shows, which depends on both.
    let width = DEFAULT_WIDTH * height;
    let protrusion = protrusionFor(width);
    if (profile) {
      for (let pass = 0; pass < 3; pass++) {
        width = widthShowing(profile, height, protrusion);
        protrusion = protrusionFor(width);
      }
    }
    // Each row stands out as far as the frontal outline shows the ear there. Above and below
    // the rows it shows (the turned photo's ear is the longer: the helix's root and the lobe lie
    // close to the head), the ear keeps the angle of the nearest row shown, so its outline seen
    // from the side keeps its shape.
    const standsOutAt = (y: number) => {
      if (!seen) return protrusion;
      const shown = Math.min(seen.top, Math.max(seen.bottom, y));
      const reach = width * earSpan((shown - bottom) / height).back;
      const root = rootX(shown, zAt(shown));
      const outer = seen.outline[Math.round((seen.top - shown) / SCAN_STEP)] ?? root;
      return Math.asin(
        Math.min(
          Math.sin(MAX_PROTRUSION),
          Math.max(Math.sin(MIN_PROTRUSION), (outer - root) / reach),
        ),
      );
    };
    const {
      fronts: rows,
      backs,
      roots,
    } = earSheets({ side, bottom, height, width, zAt, rootX, standsOutAt }, head, normals);
    // The shell shows the photographed ear, wherever the frontal outline centred it.
    const textureShift =
      profile && centre !== null ? (profile.top + profile.bottom) / 2 - centre : 0;
    const inCrop = (p: Vec3): [number, number] => {
      if (!view) return [0, 0];
      const [px, py] = project(view.camera, [p[0], p[1] + textureShift, p[2]]);
      return [(px - view.originX) * view.scale, (py - view.originY) * view.scale];
    };
    // The texture is only the part of the crop the ear lands on, not the whole crop.
    const region = view ? earRegion(rows.flat().map(inCrop), view) : null;
    const uvOf = (p: Vec3): [number, number] => {
      if (!region) return [0, 0];
      const [x, y] = inCrop(p);
      return [
        Math.min(1, Math.max(0, (x - region.left) / region.width)),
        (Math.min(1, Math.max(0, (y - region.top) / region.height)) * region.height) /
          (region.height + SKIN_BAND),
      ];
    };
    // The back wears the skin band under the photographed ear, not the ear's folds seen through.
    const backUv: [number, number] = region
      ? [0.5, (region.height + SKIN_BAND / 2) / (region.height + SKIN_BAND)]
      : [0, 0];
    const mesh = closedShell(rows, backs, roots, side, uvOf, backUv);
    const material =
      view && region
        ? texturedMaterial(
            `Ear${side > 0 ? 'Left' : 'Right'}Skin`,
            await earTexture(view, region, correct, skin),
            {
              ...SKIN_FINISH,
              doubleSided: true,
            },
          )
        : { ...fallback, doubleSided: true };
    parts.push({ name: side > 0 ? 'EarLeft' : 'EarRight', mesh, material });
    if (view && region && profile) photographed.push({ view: view.name, region });
  }
  return { parts, photographed };
}

export interface BuiltEars {
  parts: Part[];
  /** Where each ear that a turned photo showed was read: its view's name and its crop region. */
  photographed: PhotographedEar[];
}

export interface PhotographedEar {
  view: string;
  region: CropRect;
}

/** Where an ear stands: its side, rows' heights and width, and its root and tilt by height. */
interface EarFrame {
  side: 1 | -1;
  bottom: number;
  height: number;
  width: number;
  /** The root's depth at height y. */
  zAt: (y: number) => number;
  /** How far out sideways the root lies at height y and depth z. */
  rootX: (y: number, z: number) => number;
  /** The angle the ear stands out from the head at height y. */
  standsOutAt: (y: number) => number;
}

/**
 * The ear's front and back sheets, rows of COLUMNS + 1 points from the lobe
 * up, and which points are its root, seated on the head (seatOnHead).
 */
function earSheets(
  { side, bottom, height, width, zAt, rootX, standsOutAt }: EarFrame,
  head: MeshBuilder,
  normals: Float32Array,
): { fronts: Vec3[][]; backs: Vec3[][]; roots: boolean[][] } {
  const rows: Vec3[][] = [];
  // How far the helix's roll moved each point: the back of the ear is not rolled with its front.
  const rolled: Vec3[][] = [];
  const roots: boolean[][] = [];
  for (let r = 0; r <= ROWS; r++) {
    const v = rowHeight(r);
    const span = earSpan(v);
    const y = bottom + height * v;
    // Leaning back: higher parts of the ear sit further back.
    const z0 = zAt(y);
    const x0 = side * rootX(y, z0);
    const standsOut = standsOutAt(y);
    const row: Vec3[] = [];
    const moved: Vec3[] = [];
    for (let c = 0; c <= COLUMNS; c++) {
      const u = c / COLUMNS;
      const back = width * (span.front + (span.back - span.front) * u);
      // A bowl (the concha) in the middle, and the helix rolling in at the rim, towards the
      // ear's middle: forward at the back, down at the top. The lobe has no helix.
      const cup = -0.06 * height * Math.sin(Math.PI * u) * Math.sin(Math.PI * v);
      // Towards the top the rows grow shorter than the roll's reach and would fold over it, so
      // it fades out there.
      const roll =
        u > 0.8
          ? HELIX_ROLL *
            height *
            ((u - 0.8) / 0.2) ** 2 *
            smoothstep(0.05, 0.55, v) *
            (1 - smoothstep(0.8, 0.95, v))
          : 0;
      const inward = [width * EAR_MIDDLE[0] - back, height * (EAR_MIDDLE[1] - v)] as const;
      const length = Math.hypot(inward[0], inward[1]) || 1;
      // The roll moves the rim in depth and height, and a little out: how far out the rim
      // stands is the frontal outline's (standsOutAt).
      const roll3: Vec3 = [
        side * roll * 0.4,
        (roll * inward[1]) / length,
        -(roll * inward[0]) / length,
      ];
      row.push(
        add(
          [x0 + side * (back * Math.sin(standsOut) + cup), y, z0 - back * Math.cos(standsOut)],
          roll3,
        ),
      );
      moved.push(roll3);
    }
    rows.push(row);
    rolled.push(moved);
    roots.push(row.map((_, c) => c === 0 && span.front === 0));
  }
  seatOnHead(rows, roots, head, normals);
  // The back of the ear, towards the head, thicker at the rim, and not rolled: the rim's strip
  // then faces back and out, as a helix's does, where a rolled back turned its inner side,
  // facing the head and dark, towards whoever looks at the ear's front. Where both are held
  // off the head, the back stays a little nearer it than the front, or the two would weld
  // into one normal (smoothNormals).
  const backs = rows.map((row, r) =>
    row.map((p, c): Vec3 => {
      const unrolled = sub(p, rolled[r]![c]!);
      return [unrolled[0] - side * earThickness(c / COLUMNS), unrolled[1], unrolled[2]];
    }),
  );
  seatOnHead(backs, roots, head, normals, 0.8 * EAR_CLEARANCE);
  return { fronts: rows, backs, roots };
}

/**
 * The ear as one closed shell but for its root: the front sheet (`fronts`,
 * rows of COLUMNS + 1 points, its vertices first), the back sheet behind it
 * (`backs`, the same layout), and a strip joining them round every open edge
 * of the front but the root's, so the rim has thickness.
 */
function closedShell(
  fronts: readonly (readonly Vec3[])[],
  backs: readonly (readonly Vec3[])[],
  roots: readonly (readonly boolean[])[],
  side: 1 | -1,
  uvOf: (p: Vec3) => [number, number],
  backUv: [number, number],
): MeshBuilder {
  const mesh = new MeshBuilder();
  for (const row of fronts) for (const p of row) mesh.vertex(p, uvOf(p));
  for (const row of backs) for (const p of row) mesh.vertex(p, backUv);
  const count = fronts.length * (COLUMNS + 1);
  const at = (r: number, c: number) => r * (COLUMNS + 1) + c;
  const sheetQuads: [number, number, number, number][] = [];
  for (let r = 0; r < fronts.length - 1; r++) {
    for (let c = 0; c < COLUMNS; c++) {
      // The front looks away from the head (+x on the left ear, −x on the right), the back at it.
      const quad = [at(r, c), at(r, c + 1), at(r + 1, c + 1), at(r + 1, c)] as const;
      sheetQuads.push(side > 0 ? [...quad] : [quad[0], quad[3], quad[2], quad[1]]);
    }
  }
  for (const [a, b, c, d] of sheetQuads) mesh.quad(a, b, c, d);
  const front = boundaryLoops(mesh.indices);
  for (const [a, b, c, d] of sheetQuads) mesh.quad(a + count, d + count, c + count, b + count);
  // Each open edge a→b of the front (as its triangle runs) meets its copy on the back, which
  // runs b'→a' there: the strip joins them over a crest halfway between, whose normal faces out
  // of the ear's edge, so the rim shades round from front to back instead of darkening at once.
  const isRoot = (v: number) => roots[Math.floor(v / (COLUMNS + 1))]![v % (COLUMNS + 1)]!;
  const crests = new Map<number, number>();
  const crestOf = (v: number) => {
    // A root, sunk into the skull, is its own crest: the strip ends there without a point inside.
    if (isRoot(v)) return v;
    const found = crests.get(v);
    if (found !== undefined) return found;
    const point = mesh.position(v);
    const crest = mesh.vertex(lerp(point, mesh.position(v + count), 0.5), uvOf(point));
    crests.set(v, crest);
    return crest;
  };
  for (const loop of front) {
    loop.forEach((a, k) => {
      const b = loop[(k + 1) % loop.length]!;
      if (isRoot(a) && isRoot(b)) return;
      const [ca, cb] = [crestOf(a), crestOf(b)];
      // Where a crest is its root, the quad before it is a triangle.
      if (ca === a) mesh.triangle(b, a, cb);
      else if (cb === b) mesh.triangle(b, a, ca);
      else mesh.quad(b, a, ca, cb);
      mesh.quad(cb, ca, a + count, b + count);
    });
  }
  return mesh;
}

/** How thick (m, sideways) the ear is at u (0 root, 1 rim) across it: the helix's rim is the thickest. */
function earThickness(u: number): number {
  return EAR_THICKNESS[0] + (EAR_THICKNESS[1] - EAR_THICKNESS[0]) * smoothstep(0.6, 1, u);
}

const EAR_THICKNESS: [number, number] = [0.0015, 0.004];
/**
 * Rows of skin under the photographed ear in its texture, which the ear's
 * back wears at their middle: 32, so that a whole 16-row JPEG block (its
 * colour is stored at half resolution) of the band lies round that row
 * however the band falls on the blocks, and no photo bleeds into it.
 */
const SKIN_BAND = 32;

/** Rows crowd towards the ear's top and lobe, where its outline turns fastest. */
function rowHeight(r: number): number {
  return (1 - Math.cos((Math.PI * r) / ROWS)) / 2;
}

/**
 * Where the ear's outline crosses `height` (0 lobe, 1 top), as shares of its
 * width back from the root: an ear in profile is an oval leaning back, not a
 * D hung on its root. It joins the head only between the lobe's top and the
 * helix's root (ATTACHED); above, the helix arches back from the head to its
 * top, a little behind the root (APEX); below, the lobe rounds off under the
 * root (LOBE). The rim is furthest back at WIDEST.
 */
function earSpan(height: number): { front: number; back: number } {
  // The very top and bottom rows keep a length (2 mm or so): collapsed to a point, the rim's
  // strip along them had no area, and its crest no normal.
  const v = SPAN_END + (1 - 2 * SPAN_END) * height;
  const arc = (t: number) => Math.sqrt(Math.max(0, 1 - t * t));
  const [lobeTop, helixRoot] = ATTACHED;
  const front =
    v > helixRoot
      ? APEX * (1 - arc((v - helixRoot) / (1 - helixRoot)))
      : v < lobeTop
        ? LOBE * (1 - arc((lobeTop - v) / lobeTop))
        : 0;
  const back =
    v > WIDEST
      ? APEX + (1 - APEX) * arc((v - WIDEST) / (1 - WIDEST))
      : LOBE + (1 - LOBE) * arc((WIDEST - v) / WIDEST);
  return { front, back };
}

/** How far in (share of the ear's height) the outline is read for its top and bottom rows. */
const SPAN_END = 0.001;
/** The heights (shares of the ear's) between which the ear's front joins the head. */
const ATTACHED: [number, number] = [0.22, 0.78];
/** How far back (share of the width) the helix's top and the lobe's bottom lie. */
const APEX = 0.4;
const LOBE = 0.35;
/** The height (share) at which the rim reaches furthest back. */
const WIDEST = 0.6;
/** The ear's middle (shares of its width back from the root, and of its height), which the helix rolls towards. */
const EAR_MIDDLE: [number, number] = [0.45, 0.55];
/** How far (share of the ear's height) the helix rolls in at the very rim. */
const HELIX_ROLL = 0.05;

/** An ear's width (root to rim) is this share of its height where no photo shows it. */
const DEFAULT_WIDTH = 0.5;
const WIDTH_LIMITS: [number, number] = [0.35, 0.7];

/**
 * The width for which the ear, standing out by `protrusion` and leaning back,
 * spans in the turned photo as far back from its front edge as the photo's
 * ear does: each row's rim shows (y − bottom)·tan(TILT) + reach·(cos p +
 * shift·sin p) behind the lobe's front edge, and the row showing furthest
 * back sets the span; that grows with the width, so bisection finds it.
 */
function widthShowing(profile: SideEar, height: number, protrusion: number): number {
  const showsBack = Math.cos(protrusion) + profile.shift * Math.sin(protrusion);
  const span = (width: number) => {
    let most = 0;
    for (let r = 0; r <= ROWS; r++) {
      const v = rowHeight(r);
      most = Math.max(most, height * v * Math.tan(TILT) + width * earSpan(v).back * showsBack);
    }
    return most;
  };
  let lo = WIDTH_LIMITS[0] * height;
  let hi = WIDTH_LIMITS[1] * height;
  if (span(lo) >= profile.length) return lo;
  if (span(hi) <= profile.length) return hi;
  for (let i = 0; i < 20; i++) {
    const mid = (lo + hi) / 2;
    if (span(mid) < profile.length) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** How far the photographed ears may stand out, as an angle from the skull. */
const MIN_PROTRUSION = (8 * Math.PI) / 180;
const MAX_PROTRUSION = (50 * Math.PI) / 180;
/** The outline counts as ear where it stands this far (metres) outside the skull. */
const EAR_EXCESS = 0.003;
/** Ears are this tall (metres); a bump outside the range is something else (hair, a collar). */
const EAR_HEIGHT: [number, number] = [0.04, 0.085];
/** Model heights are scanned in steps of this many metres. */
const SCAN_STEP = 0.001;

/** An ear as the frontal photo's outline shows it, canonical metres. */
export interface SeenEar {
  top: number;
  bottom: number;
  /** How far its outer edge is from the midplane, sideways: the most over its height. */
  outer: number;
  /** The outer edge per scanned height, top to bottom, SCAN_STEP apart from `top`. */
  outline: number[];
}

/**
 * The ear on one side (+1 the person's left) as the frontal photo's outline
 * shows it: the longest run of heights, between the brows and below the
 * nose, where the head's outline stands outside the fitted skull. Null when
 * no such run of an ear's height is seen (hair over the ears, no plain
 * backdrop).
 */
export function measureEar(
  points: readonly Vec3[],
  halfWidth: (y: number, z: number) => number,
  frontal: PhotoView,
  side: 1 | -1,
): SeenEar | null {
  const mask = cropMask(frontal);
  if (!mask) return null;
  const faceHeight = distance(points[10]!, points[152]!);
  const edge = points[side > 0 ? 454 : 234]!;
  const z = edge[2] - 0.13 * faceHeight;
  const from = points[105]![1] + 0.15 * faceHeight;
  const to = points[2]![1] - 0.25 * faceHeight;
  const toCrop = (p: Vec3): [number, number] => {
    const [x, y] = project(frontal.camera, p);
    return [(x - frontal.originX) * frontal.scale, (y - frontal.originY) * frontal.scale];
  };
  let run: SeenEar | null = null;
  let best: SeenEar | null = null;
  const close = () => {
    if (run && run.top - run.bottom > (best ? best.top - best.bottom : 0)) best = run;
    run = null;
  };
  for (let y = from; y >= to; y -= SCAN_STEP) {
    const skull = halfWidth(y, z);
    const [sx, sy] = toCrop([side * skull, y, z]);
    const [ex] = toCrop([side * (skull + 0.001), y, z]);
    const step = ex - sx;
    const row = Math.round(sy);
    if (row < 0 || row >= frontal.height || Math.abs(step) < 1e-6) {
      close();
      continue;
    }
    // Walk outwards from the skull's outline while the photo still shows the person.
    let reach = 0;
    for (let x = sx; x >= 0 && x < frontal.width; x += Math.sign(step)) {
      if (!mask[row * frontal.width + Math.round(x)]) break;
      reach = (x - sx) / step / 1000;
    }
    if (reach > EAR_EXCESS) {
      run ??= { top: y, bottom: y, outer: 0, outline: [] };
      run.bottom = y;
      run.outer = Math.max(run.outer, skull + reach);
      run.outline.push(skull + reach);
    } else close();
  }
  close();
  const found = best as SeenEar | null;
  if (!found) return null;
  const height = found.top - found.bottom;
  return height >= EAR_HEIGHT[0] && height <= EAR_HEIGHT[1] ? found : null;
}

/** How far (m) outside the head's surface every part of an ear but its root stays. */
const EAR_CLEARANCE = 0.001;
/**
 * An ear's point with no head vertex this near (m) is well clear of the
 * head: the skull's vertices lie about a centimetre apart.
 */
const EAR_NEAR_HEAD = 0.02;

/** How deep (m) an ear's root lies in the head, so no slit shows between them. */
const ROOT_DEPTH = 0.002;

/**
 * Moves the ear's points sideways (the rows keep their heights and depths'
 * order) until each lies within `range` of the head's surface: its height
 * above the plane of the nearest head vertex (its normal's plane: a head of
 * 8 cm radius strays from it by 0.2 mm 5 mm away, 0.6 mm 1 cm away), which
 * is negative inside. Only the points `moved` picks; where the head's surface
 * faces up or down (its normal nearly across x), sideways cannot reach it.
 */
function placeAgainstHead(
  rows: Vec3[][],
  moved: (r: number, c: number) => boolean,
  head: MeshBuilder,
  normals: Float32Array,
  range: { min: number } | { max: number },
): void {
  const nearestOf = nearestVertexIndex(head, EAR_NEAR_HEAD);
  for (const [r, row] of rows.entries()) {
    for (let c = 0; c < row.length; c++) {
      if (!moved(r, c)) continue;
      const p = row[c]!;
      const nearest = nearestOf(p);
      if (nearest < 0) continue;
      const normal = vec3At(normals, nearest);
      if (Math.abs(normal[0]) <= 0.3) continue;
      const above = dot(sub(p, head.position(nearest)), normal);
      const wanted = 'min' in range ? Math.max(range.min, above) : Math.min(range.max, above);
      if (wanted !== above) row[c] = [p[0] + (wanted - above) / normal[0], p[1], p[2]];
    }
  }
}

/**
 * Every point of the ear but its root `clearance` outside the head, and the
 * root ROOT_DEPTH inside it. The shell's cup and a skull that bulges behind
 * the ear's root put parts of the shell inside the head, where they hid: on a
 * head rolled 8° in its photos a quarter of one ear's points lay 2–5 mm
 * inside, and the ear showed as two pieces. The root, placed by the head's
 * widest reach near it, stood 1–3 mm off the skull.
 */
function seatOnHead(
  rows: Vec3[][],
  roots: readonly (readonly boolean[])[],
  head: MeshBuilder,
  normals: Float32Array,
  clearance = EAR_CLEARANCE,
): void {
  placeAgainstHead(rows, (r, c) => !roots[r]![c], head, normals, { min: clearance });
  placeAgainstHead(rows, (r, c) => roots[r]![c]!, head, normals, { max: -ROOT_DEPTH });
}

/** Vertices within this distance (metres) of a height and depth count towards the width there. */
const WIDTH_BAND: [number, number] = [0.006, 0.02];

/**
 * How far the head's surface reaches sideways at height y and depth z, on
 * one side: the face (the jaw, the cheeks) where it is wider than the skull
 * there, as it is below the skull's widest. The ellipsoid's own width where
 * no vertex is near.
 */
function headHalfWidth(
  head: MeshBuilder,
  shape: HeadShape,
  side: 1 | -1,
): (y: number, z: number) => number {
  return (y, z) => {
    let reach = 0;
    for (let v = 0; v < head.vertexCount; v++) {
      const p = head.position(v);
      if (Math.abs(p[1] - y) > WIDTH_BAND[0] || Math.abs(p[2] - z) > WIDTH_BAND[1]) continue;
      reach = Math.max(reach, side * p[0]);
    }
    return reach > 0 ? reach : skullHalfWidth(shape, y, z);
  };
}

/** Half the skull's width at height y and depth z (the ellipsoid's x there). */
function skullHalfWidth(shape: HeadShape, y: number, z: number): number {
  const dy = (y - shape.centre[1]) / (y >= shape.centre[1] ? shape.up : shape.down);
  const dz = (z - shape.centre[2]) / (z >= shape.centre[2] ? shape.front : shape.back);
  return shape.side * Math.sqrt(Math.max(0.05, 1 - dy * dy - dz * dz));
}

/** The photo that faces `outward` the most, if any faces it at all. */
function bestView(views: readonly PhotoView[], outward: Vec3): PhotoView | undefined {
  let best: PhotoView | undefined;
  let score = 0.2;
  for (const view of views) {
    const s = dot(view.toward, outward);
    if (s > score) {
      best = view;
      score = s;
    }
  }
  return best;
}

/** Crop pixels round the ear's own, so bilinear lookups at its edge still read the photo. */
const EAR_REGION_MARGIN = 8;

/** The rectangle of the crop that holds every projected ear point, with a margin, inside the crop. */
function earRegion(at: readonly (readonly [number, number])[], view: PhotoView): CropRect {
  const { x0, y0, x1, y1 } = planeExtent(at);
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
  const left = clamp(Math.floor(x0) - EAR_REGION_MARGIN, view.width - 1);
  const top = clamp(Math.floor(y0) - EAR_REGION_MARGIN, view.height - 1);
  const right = clamp(Math.ceil(x1) + EAR_REGION_MARGIN, view.width - 1);
  const bottom = clamp(Math.ceil(y1) + EAR_REGION_MARGIN, view.height - 1);
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/**
 * The ear's region of the turned photo as its texture, matched to the frontal
 * photo's skin, with the backdrop painted in skin: where the ear's shell
 * reaches past the photographed ear it must not show the wall behind the head.
 */
async function earTexture(
  view: PhotoView,
  region: CropRect,
  correct: (rgb: Uint8Array) => void,
  skin: Rgb,
) {
  const { left, top, width, height } = region;
  const rgb = new Uint8Array(width * (height + SKIN_BAND) * 3);
  const maskWidth = Math.ceil(view.width / SUBJECT_MASK_SHRINK);
  const person: number[] = [];
  for (let y = 0; y < height; y++) {
    const cy = top + y;
    for (let x = 0; x < width; x++) {
      const cx = left + x;
      const from = 3 * (cy * view.width + cx);
      const to = 3 * (y * width + x);
      const m =
        view.subject?.[
          Math.floor(cy / SUBJECT_MASK_SHRINK) * maskWidth + Math.floor(cx / SUBJECT_MASK_SHRINK)
        ];
      const w = m === undefined ? 1 : m / 255;
      if (w > 0.5) person.push(to);
      for (let c = 0; c < 3; c++) {
        const photo = view.rgb[from + c]! * view.gain[c]!;
        rgb[to + c] = Math.min(255, Math.round(photo * w + skin[c]! * 255 * (1 - w)));
      }
    }
  }
  correct(rgb.subarray(0, width * height * 3));
  // The band below wears the photographed skin's median: the ear's folds are darker, the
  // head round it lighter.
  const band = [0, 1, 2].map((c) => {
    const values = person.map((at) => rgb[at + c]!).sort((a, b) => a - b);
    return values.length > 0 ? values[values.length >> 1]! : Math.round(skin[c]! * 255);
  });
  for (let at = width * height * 3; at < rgb.length; at += 3) rgb.set(band, at);
  return jpegTexture(rgb, width, height + SKIN_BAND);
}
