import { clearOfBody } from '../outfits/clear-of-body.js';
import type { BodyField } from '../body-field.js';
import type { AvatarMaterial } from '../../model.js';
import type { HeadFrame } from '../head-builder.js';
import type { HeadRadiusMap } from '../head-radius-map.js';
import { MeshBuilder } from '../mesh-builder.js';
import type { Part } from '../part.js';
import type { Proportions } from '../proportions.js';
import type { Skeleton } from '../skeleton.js';
import { skinHairByHeight } from '../outfits/hair-weights.js';
import { FADE_FROM, WHOLE_HAIR_TO, fadingStrandTexture } from './hair-strands.js';
import { skinRigid } from '../skin-weights.js';
import { smoothstep, type Vec3 } from '../vec3.js';

/** Long hair and the bob both fall from the same hairline, down past the ears at the back. */
const BELOW_EARS_HAIRLINE: readonly [number, number][] = [
  [0, 8],
  [50, 8],
  // Down round the temples, a few degrees above the face's outline (which decides from the
  // forehead to them), and on down in front of the ears. Held at 8° to 70°, it left a notch of
  // bare skin at each temple, its corner square, where the outline fell away below it.
  [65, -8],
  [80, -20],
  [90, -40],
  [180, -55],
];

export const HAIR_STYLES = ['short', 'long', 'bob'] as const;
export const HEADWEAR_STYLES = ['beanie', 'cap'] as const;
export type HairStyle = (typeof HAIR_STYLES)[number] | (typeof HEADWEAR_STYLES)[number];

const DEG = Math.PI / 180;

/** How much further (m) the cap's crown stands off the head half way up its front. */
const CAP_FRONT = 0.012;

/**
 * A cap's crown is six panels, their seams running from its button down to
 * its band: at the front's middle, at the back's, and 60° either side of
 * each. A panel stands up to PANEL_PUFF (m) further out than its seams, half
 * way up; round the same all over, the crown read as a skullcap. CAP_AROUND
 * columns put a column on every seam.
 */
const PANEL_PUFF = 0.006;
const CAP_AROUND = 60;

function panelPuff(s: number, azimuth: number): number {
  // Flat across a panel, turning in sharply at its seams; fading out towards the button, where
  // the seams meet (faded as the sine alone, the panels rose round the button and buried it).
  return PANEL_PUFF * Math.abs(Math.sin(3 * azimuth)) ** 0.3 * Math.sin(Math.PI * s) ** 2;
}

/**
 * The short cut's fade, in rows by |azimuth|: short at the forehead, shortest
 * round the ears, longest at the nape. Faded over 2.5 rows over the ears, it
 * thinned out over 2.5 cm above them, a shaved-looking band.
 */
const SHORT_CUT_FADE: readonly [number, number][] = [
  [0, 1.5],
  [85, 1.5],
  [95, 1],
  [115, 1],
  [135, 2.5],
  [180, 3.5],
];
const AROUND = 56;
/**
 * The short cut's columns, 4.1° apart: its hairline rounds each ear, 25–30°
 * wide, in six or seven steps (AROUND's 6.4°: four or five). At 88 its 3,080
 * triangles stay under long hair's 3,320, the heaviest look's.
 */
const SHORT_AROUND = 88;
/**
 * Ear points within this (m) of the head are where a short cut's shell, 3.5–6 mm
 * off the skin near its hairline, would pass through the ear.
 */
const EAR_ROOT_CLEARANCE = 0.008;
/** How far (rad) above those a short cut's hairline rounds the ear. */
const ABOVE_EAR = 1 * (Math.PI / 180);
const DOWN = 18;

/**
 * A covering of the skull from the crown down to a hairline. `hairline`
 * gives the lowest elevation (degrees) by |azimuth| (degrees, 0 = front);
 * the face's own outline is never covered except by `fringe` degrees (one
 * number, or a table by |azimuth|).
 */
interface Shell {
  hairline: readonly [number, number][];
  fringe: number | readonly [number, number][];
  /** Height above the skin (m) by s (0 at the crown, 1 at the hairline) and azimuth (rad). */
  gap: (s: number, azimuth: number, elevation: number) => number;
  /**
   * Hair shells carry the strand texture from its top (v = 0, the crown) to
   * this v at the hairline (1: the strands' ragged ends make the hairline,
   * within the shell's last row); headwear has none.
   */
  strandsTo?: number;
  /**
   * Whether it comes down over the ears, and so passes outside them: laid on
   * the head alone, long hair's and the bob's shells let the ears through.
   */
  overEars?: true;
  /**
   * Over how many of its last rows, by |azimuth| (degrees), the strands of
   * `fadingStrandTexture` thin out into the skin: a blended short cut's
   * taper. Without, they end within the last row.
   */
  fade?: readonly [number, number][];
  /** How many columns go round it (AROUND unless told). */
  around?: number;
  /**
   * Whether its hairline rounds the ears, just above where their roots lie
   * within the shell's gap: a short cut's, laid on the head alone with no
   * curtain, between its sideburns and its nape.
   */
  aboveEars?: true;
}

/**
 * How many times the strand texture, or headwear's grain, goes round the
 * head: a beanie's 4-texel ribs then lie about 5 mm apart.
 */
const STRAND_REPEAT = 4;
/** How many times headwear's grain tiles from its crown to its edge (about 3 a metre, like the clothes'). */
const HEADWEAR_DOWN = 0.6;

/** Hair hanging below the shell, all round the back from |azimuth| ≥ `from` degrees. */
interface Curtain {
  from: number;
  /** How many degrees further back its front edge is at the bottom than at the top. */
  slant: number;
  /** Lowest point (model y) at the sides and at the back. */
  endSide: number;
  endBack: number;
  /** How much wider (a fraction) it hangs at its ends than at the widest of the head, all round. */
  flare: number;
  /**
   * How much wider again at the sides (times sin² of the azimuth): long hair
   * spreads over the shoulder blades, but falls close down the back.
   */
  spread: number;
  gap: number;
  curls: number;
  /** Over how many of its last rows the strands' ends run out. */
  frayedRows: number;
  /**
   * How much further in (a fraction of its reach) its ends hang, drawn in
   * over its last quarter: a bob's ends turn under.
   */
  tuck: number;
}

/** How far (m) hanging hair stays off the skin, or the clothes, it reaches down to. */
const CLEARANCE = 0.004;

export function buildHair(
  style: HairStyle,
  frame: HeadFrame,
  p: Proportions,
  skeleton: Skeleton,
  body: MeshBuilder,
  field: BodyField,
  material: AvatarMaterial,
  /** How far (m) the clothes stand off the skin at a point of the neck and shoulders: the hair lies on them. */
  clothes: (p: Vec3) => number = () => 0,
): Part[] {
  const chinY = frame.points[152]![1];
  const guard = faceGuard(frame);
  const parts: Part[] = [];
  const shell = (spec: Shell) => {
    const mesh = new MeshBuilder();
    appendShell(mesh, frame.surface, spec, guard);
    skinRigid(mesh, 0, 'Head');
    return mesh;
  };
  const curtain = (spec: Curtain, over: Shell) => {
    const mesh = new MeshBuilder();
    appendCurtain(mesh, frame.surface, spec, shellReach(frame.surface, over, guard));
    clearOfBody(mesh, 0, field, (q) => CLEARANCE + clothes(q));
    skinHairByHeight(mesh, 0, p, body, {
      chin: frame.points[152]!,
      angles: [frame.points[172]!, frame.points[397]!],
    });
    return mesh;
  };
  const curly = (amount: number) => (s: number, a: number, e: number) =>
    amount * (0.5 + 0.5 * Math.sin(7 * a) * Math.sin(9 * e + 1));
  switch (style) {
    case 'short': {
      const mesh = shell({
        strandsTo: 1,
        // Above the forehead a few degrees above the face's outline, as long hair's; from the
        // forehead's corner the temples' edge runs steeply down, over the face's outline there
        // (`fringe`), to sideburns in front of the ears that reach their middle; over the ears,
        // then down behind them to the nape. It stopped at the back of the skull, a bowl cut
        // over a bare nape; held level to 60° and then cut straight down to the top of the
        // ear, it left the temples bare, 12–15° deep; kept 5° above the outline all along, it
        // ran diagonally from the forehead's corner to the top of the ear, a bare temple 3–4 cm
        // wide behind the eye over sideburns 1 cm long. Over the ears the table lies low and
        // `aboveEars` lifts it round each ear's root: held at a fixed −6° to −8° there, it left
        // 1.6–2.4 cm of bare skin above the ears. At the back's middle it comes down to the
        // ears' lowest points (half the strands' coverage): at −50° there, 2 cm above them, it
        // was a bowl over a bare nape.
        hairline: [
          [0, 8],
          [50, 8],
          [59, 6],
          [63, 0],
          [67, -14],
          [71, -25],
          [77, -31],
          [88, -33],
          [108, -34],
          [126, -44],
          [180, -64],
        ],
        aboveEars: true,
        around: SHORT_AROUND,
        fringe: [
          [0, -2],
          [48, -2],
          [62, 14],
        ],
        // Fullest on top, close at the sides and the nape: an even 11 mm stood out from the
        // temples down like a helmet, and thinning only from a third of the way down, 7 mm at
        // the temples (6 mm now) still rounded the sides out in a bowl from the front.
        gap: (s) => 0.0035 + 0.011 * (1 - smoothstep(0.2, 0.7, s)),
        fade: SHORT_CUT_FADE,
      });
      // Blended, not cut out at alpha 0.5: the strands then fade into the skin, over a row and
      // a half at the forehead and over three and a half (4 cm) at the nape, a taper. Cut
      // out, the mip-averaged ends made one hard edge at their median length, a helmet's rim.
      // One shell over the opaque head needs no sorting; long hair and the bob stay cut out,
      // as their curtains overlap their shells.
      parts.push({
        name: 'Hair',
        mesh,
        material: { ...material, texture: fadingStrandTexture(), alphaMode: 'BLEND' },
      });
      break;
    }
    case 'long': {
      const cover: Shell = {
        strandsTo: 0.6,
        hairline: BELOW_EARS_HAIRLINE,
        overEars: true,
        fringe: -2,
        gap: (s) => 0.013 * (0.4 + 0.6 * (1 - smoothstep(0.85, 1, s))),
      };
      const mesh = shell(cover);
      mesh.append(
        curtain(
          {
            from: 78,
            slant: 30,
            endSide: p.shoulderY + 0.025,
            endBack: p.shoulderY - 0.13,
            flare: 0.12,
            spread: 0.35,
            gap: 0.013,
            curls: 0,
            frayedRows: 3,
            tuck: 0,
          },
          cover,
        ),
      );
      parts.push({ name: 'Hair', mesh, material });
      break;
    }
    case 'bob': {
      const cover: Shell = {
        strandsTo: 0.6,
        hairline: BELOW_EARS_HAIRLINE,
        overEars: true,
        // A fringe over the upper forehead.
        fringe: 7,
        gap: (s, a, e) => 0.02 * (0.4 + 0.6 * (1 - smoothstep(0.85, 1, s))) + curly(0.007)(s, a, e),
      };
      const mesh = shell(cover);
      mesh.append(
        curtain(
          {
            from: 72,
            slant: 0,
            endSide: chinY + 0.01,
            endBack: chinY - 0.005,
            flare: 0.28,
            spread: 0,
            gap: 0.02,
            curls: 0.008,
            // Cut blunt and turned under: flaring on out to its ends, over three rows of wisps
            // (about 4 cm), it stood round the jaw like a broom.
            frayedRows: 2,
            tuck: 0.1,
          },
          cover,
        ),
      );
      parts.push({ name: 'Hair', mesh, material });
      break;
    }
    case 'beanie': {
      const mesh = shell({
        hairline: [
          [0, 0],
          [60, 0],
          [90, -8],
          [180, -22],
        ],
        fringe: 5,
        // Knit stands off the head, a folded cuff at the bottom, slack gathered at the crown.
        gap: (s) => 0.014 + 0.011 * smoothstep(0.72, 0.78, s) + 0.03 * (1 - s) ** 2,
      });
      appendBall(mesh, frame.surface.pointAt(0, Math.PI / 2, 0.014 + 0.03 + 0.022), 0.028);
      skinRigid(mesh, 0, 'Head');
      parts.push({ name: 'Beanie', mesh, material });
      break;
    }
    case 'cap': {
      const crownLine: [number, number][] = [
        [0, 4],
        [60, 4],
        [90, -4],
        [180, -12],
      ];
      // Fuller over the forehead, a baseball cap's stiff front panels: a dome the same all
      // round read as a skullcap in profile.
      const gap = (s: number, azimuth = Math.PI) =>
        0.009 +
        0.012 * (1 - s) ** 2 +
        CAP_FRONT * Math.max(0, Math.cos(azimuth)) ** 2 * Math.sin(Math.PI * s) ** 2;
      const mesh = shell({
        hairline: crownLine,
        fringe: 1,
        gap: (s, azimuth) => gap(s, azimuth) + panelPuff(s, azimuth),
        around: CAP_AROUND,
      });
      appendBrim(mesh, frame.surface, crownLine, guard, gap(1));
      appendBall(mesh, frame.surface.pointAt(0, Math.PI / 2, gap(0)), 0.008);
      skinRigid(mesh, 0, 'Head');
      parts.push({ name: 'Cap', mesh, material });
      break;
    }
  }
  return parts;
}

/** Piecewise-linear table lookup by |azimuth| in degrees. */
function table(points: readonly [number, number][], azimuthDeg: number): number {
  const a = Math.abs(azimuthDeg);
  for (let i = 1; i < points.length; i++) {
    const [a0, v0] = points[i - 1]!;
    const [a1, v1] = points[i]!;
    if (a <= a1) return v0 + ((v1 - v0) * (a - a0)) / Math.max(1e-9, a1 - a0);
  }
  return points[points.length - 1]![1];
}

/**
 * The elevation of the top of the face's outline by azimuth, in degrees
 * (−90 where the face does not reach): hair stops above it.
 */
function faceGuard(frame: HeadFrame): (azimuthDeg: number) => number {
  const map = frame.surface;
  const centreY = map.centre[1];
  const upper = frame.rim
    .filter((p) => p[1] > centreY - 0.02)
    .map((p) => {
      const d = map.direction(p);
      return [d.azimuth / DEG, d.elevation / DEG] as [number, number];
    })
    .sort((a, b) => a[0] - b[0]);
  const lo = upper[0]?.[0] ?? 0;
  const hi = upper[upper.length - 1]?.[0] ?? 0;
  return (a) => {
    if (a < lo - 2 || a > hi + 2 || upper.length < 2) return -90;
    for (let i = 1; i < upper.length; i++) {
      const [a0, e0] = upper[i - 1]!;
      const [a1, e1] = upper[i]!;
      if (a <= a1) return e0 + ((e1 - e0) * (Math.max(a, a0) - a0)) / Math.max(1e-9, a1 - a0);
    }
    return upper[upper.length - 1]![1];
  };
}

function hairlineAt(spec: Shell, guard: (a: number) => number, azimuth: number): number {
  const a = azimuth / DEG;
  const fringe = typeof spec.fringe === 'number' ? spec.fringe : table(spec.fringe, a);
  return Math.max(table(spec.hairline, a), guard(a) + 3 - fringe) * DEG;
}

/**
 * Raises a shell's hairline, given at its columns (`lows`, radians, `around`
 * of them and the first repeated last), to ABOVE_EAR over each ear root point
 * (`roots`, azimuth and elevation): first the column nearest each point; then,
 * where the straight edge between two columns would still pass under a point
 * between them, both columns by the shortfall. Raised only, so each point
 * once cleared stays clear.
 */
function roundTheEars(lows: number[], roots: readonly [number, number][], around: number): void {
  const column = (2 * Math.PI) / around;
  const at = (azimuth: number) => (azimuth + Math.PI) / column;
  for (const [azimuth, elevation] of roots) {
    const j = Math.round(at(azimuth)) % around;
    lows[j] = Math.max(lows[j]!, elevation + ABOVE_EAR);
  }
  for (const [azimuth, elevation] of roots) {
    const x = at(azimuth);
    const j = Math.floor(x) % around;
    const k = (j + 1) % around;
    const f = x - Math.floor(x);
    const short = elevation + ABOVE_EAR - ((1 - f) * lows[j]! + f * lows[k]!);
    if (short <= 0) continue;
    lows[j] = lows[j]! + short;
    lows[k] = lows[k]! + short;
  }
  lows[around] = lows[0]!;
}

/**
 * How far from the head's centre a shell reaches in a direction, or null
 * below its hairline, where it does not reach (appendShell's surface).
 */
function shellReach(
  map: HeadRadiusMap,
  spec: Shell,
  guard: (a: number) => number,
): (azimuth: number, elevation: number) => number | null {
  return (azimuth, elevation) => {
    const low = hairlineAt(spec, guard, azimuth);
    if (elevation < low) return null;
    const s = (Math.PI / 2 - elevation) / (Math.PI / 2 - low);
    return map.reach(azimuth, elevation, spec.gap(s, azimuth, elevation), spec.overEars);
  };
}

/** The shell: a fan at the crown, then rings down to the hairline. */
/**
 * The strands' v at row i of a shell whose last `rows` rows (a fraction
 * allowed) are its fade: the rows above it cover the whole hair, and the
 * fade the thinning strands, down to v = 1 at the hairline.
 */
function fadingV(i: number, rows: number): number {
  const whole = DOWN - rows;
  return i <= whole
    ? (FADE_FROM[0] * i) / whole
    : FADE_FROM[0] + ((1 - FADE_FROM[0]) * (i - whole)) / rows;
}

function appendShell(
  mesh: MeshBuilder,
  map: HeadRadiusMap,
  spec: Shell,
  guard: (a: number) => number,
): void {
  const first = mesh.vertexCount;
  const around = spec.around ?? AROUND;
  // The first column is repeated at u = STRAND_REPEAT: the texture's seam.
  const columns = around + 1;
  const strandsTo = spec.strandsTo;
  const fade = spec.fade;
  // Where the strands end at the hairline, they end in its last row. Spread over the whole
  // shell, the ends (v 0.84–0.98) made a comb of teeth 2–4 cm deep round a short cut.
  // Headwear's grain tiles down it instead.
  const v = (i: number, azimuth: number) => {
    if (strandsTo === undefined) return (i / DOWN) * HEADWEAR_DOWN;
    if (fade !== undefined) return fadingV(i, table(fade, azimuth / DEG));
    if (strandsTo !== 1) return (i / DOWN) * strandsTo;
    return i === DOWN ? 1 : (WHOLE_HAIR_TO * i) / (DOWN - 1);
  };
  const azimuthOf = (j: number) => -Math.PI + (2 * Math.PI * j) / around;
  const uv = (j: number, i: number): [number, number] => [
    (STRAND_REPEAT * j) / around,
    v(i, azimuthOf(j)),
  ];
  const crown = mesh.vertex(
    map.pointAt(0, Math.PI / 2, spec.gap(0, 0, Math.PI / 2), spec.overEars),
    uv(around / 2, 0),
  );
  const lows = Array.from({ length: columns }, (_, j) => hairlineAt(spec, guard, azimuthOf(j)));
  if (spec.aboveEars) roundTheEars(lows, map.earRoots(EAR_ROOT_CLEARANCE), around);

  for (let i = 1; i <= DOWN; i++) {
    const s = i / DOWN;
    for (let j = 0; j < columns; j++) {
      const azimuth = azimuthOf(j);
      const low = lows[j]!;
      const elevation = Math.PI / 2 - (Math.PI / 2 - low) * s;
      mesh.vertex(
        map.pointAt(azimuth, elevation, spec.gap(s, azimuth, elevation), spec.overEars),
        uv(j, i),
      );
    }
  }
  const at = (i: number, j: number) => first + 1 + (i - 1) * columns + j;
  // Azimuth grows towards the avatar's left (counter-clockwise seen from above).
  for (let j = 0; j < around; j++) mesh.triangle(crown, at(1, j), at(1, j + 1));
  for (let i = 1; i < DOWN; i++) {
    for (let j = 0; j < around; j++)
      mesh.quad(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
  }
}

/**
 * Hair hanging from the back half of the shell: from near the top of the
 * head, where its top edge is tucked under the shell (TUCK_RISE), over the
 * widest part of the head, then straight down; kept OVER_SHELL outside the
 * shell (`shell`) wherever it lies over it. Where the two crossed, the
 * shell's curls came through the curtain in dark, jagged patches down the
 * sides and back.
 */
function appendCurtain(
  mesh: MeshBuilder,
  map: HeadRadiusMap,
  spec: Curtain,
  shell: (azimuth: number, elevation: number) => number | null,
): void {
  const columns = 40;
  const rows = 16;
  const first = mesh.vertexCount;
  const top = 40 * DEG;
  const tucked = top + TUCK_RISE * DEG;
  for (let j = 0; j <= columns; j++) {
    // Its front edge leans back as it falls (`slant`), below the neck's middle: hanging
    // straight down from the temple, it was a wall in profile, from the ear down to the
    // shoulder. Leaning from the top, it let the ear's lobe out under the shell; from higher
    // on the neck, it lay where a broad body's hoodie cowl rises into it in the idle pose
    // (19 mm). The columns towards the front lean most, the back's hardly: moved as much,
    // the hair at the back swung into the cowl when the head turned.
    const side = (2 * j) / columns - 1;
    const lean = spec.slant * side * Math.abs(side) * DEG;
    const azimuthAt = (u: number) =>
      spec.from * DEG +
      ((2 * Math.PI - 2 * spec.from * DEG) * j) / columns -
      lean * smoothstep(SLANT_FROM, 1, u);
    const topAzimuth = azimuthAt(0);
    // The curtain's top edge, tucked under the shell: it comes out through the shell below.
    const under = shell(topAzimuth, tucked) ?? map.radius(topAzimuth, tucked) + spec.gap;
    const reachTucked = (under - TUCK_DEPTH) * Math.cos(tucked);
    mesh.vertex(
      [
        map.centre[0] + reachTucked * Math.sin(topAzimuth),
        map.centre[1] + (under - TUCK_DEPTH) * Math.sin(tucked),
        map.centre[2] + reachTucked * Math.cos(topAzimuth),
      ],
      [(2 * STRAND_REPEAT * j) / columns, 0.55],
    );
    for (let i = 0; i <= rows; i++) {
      const u = i / rows;
      const azimuth = azimuthAt(u);
      // The widest the head gets at this azimuth, seen from above.
      let widest = 0;
      for (let e = -50; e <= 20; e += 10)
        widest = Math.max(widest, map.radius(azimuth, e * DEG) * Math.cos(e * DEG));
      const start = map.pointAt(azimuth, top, spec.gap);
      const startReach = Math.hypot(start[0] - map.centre[0], start[2] - map.centre[2]);
      // Decided by where the column starts, not where it leans back to: decided there, the
      // front columns ended 5 cm lower, behind the shoulders, and frayed over 9 cm.
      const back = smoothstep(90, LEVEL_FROM, Math.abs(wrapDegrees(topAzimuth / DEG)));
      const end = spec.endSide + (spec.endBack - spec.endSide) * back;
      const flare = spec.flare + spec.spread * Math.sin(azimuth) ** 2;
      const hang =
        (widest + spec.gap) * (1 + flare * u * u) * (1 - spec.tuck * smoothstep(0.75, 1, u));
      const curl = spec.curls * Math.sin(9 * azimuth + 12 * u);
      const y = start[1] + (end - start[1]) * u;
      const reach = clearOfShell(
        startReach + (hang - startReach) * smoothstep(0, 0.3, u) + curl,
        y - map.centre[1],
        (elevation) => shell(azimuth, elevation),
      );
      mesh.vertex(
        [map.centre[0] + reach * Math.sin(azimuth), y, map.centre[2] + reach * Math.cos(azimuth)],
        [(2 * STRAND_REPEAT * j) / columns, curtainV(i, rows, spec.frayedRows)],
      );
    }
  }
  // Row −1 is the tucked edge.
  const at = (j: number, i: number) => first + j * (rows + 2) + i + 1;
  for (let j = 0; j < columns; j++) {
    for (let i = -1; i < rows; i++)
      mesh.quad(at(j, i), at(j, i + 1), at(j + 1, i + 1), at(j + 1, i));
  }
}

/**
 * The strand texture's v down the curtain's rows: whole hair (on from the
 * shell's 0.6) to its last `frayed` rows, over which the strands' ends run
 * out. Spread evenly from 0.6 to 1, the ends (v 0.84–0.98) took the
 * curtain's lower third and more: long hair ended in a broom of wisps up to
 * 11.5 cm long.
 */
function curtainV(row: number, rows: number, frayed: number): number {
  const whole = rows - frayed;
  return row <= whole
    ? 0.6 + ((WHOLE_HAIR_TO - 0.6) * row) / whole
    : WHOLE_HAIR_TO + ((1 - WHOLE_HAIR_TO) * (row - whole)) / frayed;
}

/**
 * From how far round from the front (|azimuth| where a column starts,
 * degrees) the curtain's ends are level, at `endBack`: they rise to
 * `endSide` in front of it. Rising all the way round from the sides to the
 * back's middle, long hair ended in a V from behind, a point 13 cm below its
 * sides.
 */
const LEVEL_FROM = 140;

/** How far down the curtain (0 at its top, 1 at its ends) its front edge starts to lean back. */
const SLANT_FROM = 0.55;

/**
 * How far above the curtain's first free row its top edge starts (degrees of
 * elevation), and how deep under the shell (m). Its edge lay on the shell
 * and stood off it, at 20° of elevation: a line across the back of the head
 * where it began. Now it starts at 40°, near the top of the head, its edge
 * under the shell, and comes out through it.
 */
const TUCK_RISE = 12;
const TUCK_DEPTH = 0.003;

/** How far the curtain stands off the shell where it lies over it (m). */
const OVER_SHELL = 0.002;

/**
 * A curtain point's horizontal reach from the head's axis, `height` above
 * its centre, moved out until the point lies OVER_SHELL beyond the shell's
 * reach in its direction (`shell`, null where the shell does not reach).
 */
function clearOfShell(
  reach: number,
  height: number,
  shell: (elevation: number) => number | null,
): number {
  let r = reach;
  // The shell's reach depends on the direction, which moving out changes a little: settle it.
  for (let k = 0; k < 3; k++) {
    const under = shell(Math.atan2(height, r));
    if (under === null) return r;
    const needed = under + OVER_SHELL;
    if (Math.hypot(r, height) >= needed) return r;
    r = Math.sqrt(Math.max(0, needed * needed - height * height));
  }
  return r;
}

function wrapDegrees(a: number): number {
  return a - 360 * Math.round(a / 360);
}

/**
 * A cap's brim, how far it reaches forward at the middle (m), how far its
 * sides come down at its outer corners (m), how thick it is (m), and how
 * much of each column's reach turns from outward round the head to
 * straight forward.
 */
const BRIM = { reach: 0.075, bend: 0.018, thickness: 0.004, forward: 0.6 } as const;

/**
 * A cap's brim: a stiff plate reaching forward from the crown's edge,
 * bent down at its sides, with a top, an underside, an edge and closed
 * ends. A flat sheet reaching straight out round the head stood off the
 * temples in wings from in front, and in front of the eyes it was a line.
 */
function appendBrim(
  mesh: MeshBuilder,
  map: HeadRadiusMap,
  crownLine: readonly [number, number][],
  guard: (a: number) => number,
  gap: number,
): void {
  const columns = 24;
  const rows = 5;
  const span = 56 * DEG;
  const shell: Shell = { hairline: crownLine, fringe: 1, gap: () => gap };
  const top: number[][] = [];
  const under: number[][] = [];
  for (let j = 0; j <= columns; j++) {
    const azimuth = -span + (2 * span * j) / columns;
    const side = azimuth / span;
    const edge = map.pointAt(azimuth, hairlineAt(shell, guard, azimuth), gap);
    const length = BRIM.reach * Math.pow(Math.max(0, 1 - side ** 2), 0.6) + 0.002;
    // Where it is short, towards its ends, it bends less: bent as much over its last few
    // millimetres, each end hung down 3 cm in a tab.
    const stiff = Math.min(1, length / (0.3 * BRIM.reach));
    const out = [Math.sin(azimuth) * (1 - BRIM.forward), Math.cos(azimuth)];
    const norm = Math.hypot(out[0]!, out[1]!);
    top.push([]);
    under.push([]);
    for (let i = 0; i <= rows; i++) {
      const u = i / rows;
      const reach = length * u;
      const p: Vec3 = [
        edge[0] + (out[0]! / norm) * reach,
        edge[1] - (0.012 * u * u + BRIM.bend * u * side ** 2) * stiff,
        edge[2] + (out[1]! / norm) * reach,
      ];
      // The grain's scale on the crown, about 3 tiles a metre.
      const uv: [number, number] = [(STRAND_REPEAT * azimuth) / (2 * Math.PI), 3 * reach];
      top[j]!.push(mesh.vertex(p, uv));
      under[j]!.push(mesh.vertex([p[0], p[1] - BRIM.thickness, p[2]], uv));
    }
  }
  for (let j = 0; j < columns; j++) {
    for (let i = 0; i < rows; i++) {
      mesh.quad(top[j]![i]!, top[j]![i + 1]!, top[j + 1]![i + 1]!, top[j + 1]![i]!);
      mesh.quad(under[j]![i]!, under[j + 1]![i]!, under[j + 1]![i + 1]!, under[j]![i + 1]!);
    }
    // The edge round its front, from the top down to the underside.
    mesh.quad(top[j]![rows]!, under[j]![rows]!, under[j + 1]![rows]!, top[j + 1]![rows]!);
  }
  // Its two ends, closed.
  for (let i = 0; i < rows; i++) {
    mesh.quad(top[0]![i]!, under[0]![i]!, under[0]![i + 1]!, top[0]![i + 1]!);
    const last = columns;
    mesh.quad(top[last]![i]!, top[last]![i + 1]!, under[last]![i + 1]!, under[last]![i]!);
  }
}

/** A small ball: a beanie's pompom or a cap's button. */
function appendBall(mesh: MeshBuilder, centre: Vec3, radius: number): void {
  const rings = 8;
  const around = 12;
  const first = mesh.vertexCount;
  for (let i = 0; i <= rings; i++) {
    const polar = (Math.PI * i) / rings;
    // The first column again at its end: the texture's seam.
    for (let j = 0; j <= around; j++) {
      const a = (2 * Math.PI * j) / around;
      mesh.vertex(
        [
          centre[0] + radius * Math.sin(polar) * Math.sin(a),
          centre[1] + radius * Math.cos(polar),
          centre[2] + radius * Math.sin(polar) * Math.cos(a),
        ],
        [j / around, i / rings],
      );
    }
  }
  const at = (i: number, j: number) => first + i * (around + 1) + j;
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < around; j++) {
      // The poles' rings collapse to a point: skip the degenerate halves.
      if (i > 0) mesh.triangle(at(i, j), at(i + 1, j), at(i, j + 1));
      if (i < rings - 1) mesh.triangle(at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
    }
  }
}
