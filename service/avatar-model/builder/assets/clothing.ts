import { texturedMaterial } from '../materials.js';
import { grainTexture, type Grain } from '../outfits/grain-texture.js';
import { MeshBuilder } from '../mesh-builder.js';
import type { BodyTemplate } from '../body-template.js';
import { onArm } from '../body-mesh.js';
import type { Part } from '../part.js';
import type { Proportions } from '../proportions.js';
import { appendOffsetGarment, type GarmentCut, type Neckline } from '../outfits/offset-garment.js';
import { hangingTop } from '../outfits/hanging-tops.js';
import { looseSleeves } from '../outfits/loose-sleeves.js';
import { appendClothPatch, appendPatchPair, type FrontPoint } from '../outfits/cloth-patch.js';
import { appendLoweredHood, hoodRise } from '../outfits/lowered-hood.js';
import { straightLegs } from '../outfits/straight-legs.js';
import { crotchSpan } from '../outfits/crotch-span.js';
import { skinLikeBody, skinLikeNearest } from '../outfits/transfer-weights.js';
import { addScaled, normalize, type Vec3 } from '../vec3.js';
import { neckZ } from '../body-skeleton.js';
import { appendTube, TUBE_DEFAULTS, type TubeOptions, type TubeSpec } from '../tube.js';
import { clothFrontOf } from '../outfits/cloth-front.js';
import { ridingOn } from '../outfits/ride-on-surface.js';

export const CLOTHING_STYLES = ['tshirt', 'hoodie', 'shirt', 'jersey'] as const;
export type ClothingStyle = (typeof CLOTHING_STYLES)[number];

/** The clothing slot has no colour of its own: each garment has its colour. */
export const CLOTHING_COLOURS: Readonly<Record<ClothingStyle, string>> = {
  tshirt: '#e8e6e1',
  hoodie: '#5a6472',
  shirt: '#9cc2e4',
  jersey: '#c0392b',
};
/**
 * What each top's details are made of: the hoodie's cords, the shirt's
 * buttons, the jersey's trim (the T-shirt has none).
 */
const DETAILS: Readonly<Record<ClothingStyle, { colour: string; grain: Grain }>> = {
  tshirt: { colour: '#f4f4f4', grain: 'jersey' },
  hoodie: { colour: '#d9d9d9', grain: 'twill' },
  shirt: { colour: '#f4f4f4', grain: 'rubber' },
  jersey: { colour: '#f4f4f4', grain: 'pique' },
};
/** How far (m) a trim stands off the garment it edges. */
const TRIM_OVER = 0.003;

/** What each top is knitted or woven as; every pair of trousers is a twill. */
export const WEAVES: Readonly<Record<ClothingStyle, Grain>> = {
  tshirt: 'jersey',
  hoodie: 'fleece',
  shirt: 'poplin',
  jersey: 'pique',
};

/** Every outfit has full-length trousers: the legs are never bare. */
export const TROUSER_COLOURS: Readonly<Record<ClothingStyle, string>> = {
  tshirt: '#3b5a85',
  hoodie: '#30343f',
  shirt: '#b3a07a',
  jersey: '#1f2a44',
};

/** How far (m) the trousers stand off the skin where they do not hang straight (the seat, the thighs). */
const TROUSER_EASE = 0.008;

/** Appends part of a body tube, inflated, and skins it with the weights of the body under it. */
function piece(mesh: MeshBuilder, t: BodyTemplate, spec: TubeSpec, options: TubeOptions): void {
  const open = { capStart: false, capEnd: false, ...options };
  const first = appendTube(mesh, spec, open);
  skinLikeBody(mesh, first, t, spec, open);
}

/**
 * Round necklines, in neck radii (so a child's is a child's size): the
 * opening round an axis that stands forward of the neck's own (so it dips at
 * the front, not the back), and how far above the neck's base it runs at the
 * front and the back. Behind the axis each reaches further (`back`): the back
 * of the neck lies up to 1.3 radii behind the neck's own axis, 1.65 behind
 * this one, and a margin keeps it bare while the trapezius beside it stays
 * covered.
 */
const NECKLINES = {
  crew: { radius: 1.3, back: 1.9, front: -0.8, rear: 0, rearRise: 0.5 },
  // A jersey's: wider, and deep enough at the front to make a shallow V.
  scoop: { radius: 1.5, back: 2.1, front: -1.45, rear: 0, rearRise: 0.5 },
} as const;
/** A sleeveless top's armhole: a sphere round the arm's root, in the root section's radii. */
const ARMHOLE = 1.2;
/** The ribbed band round a round neckline and armholes: how wide (m), how far off the skin its edge lies. */
const BAND = { width: 0.02, ease: 0.003 };
type NecklineStyle = keyof typeof NECKLINES;

const LEGS = new Set(['leftLeg', 'rightLeg']);
const FEET = new Set(['leftFoot', 'rightFoot']);
const TORSO = new Set(['torso', 'leftBust', 'rightBust']);

/**
 * How far (m) each top stands off the skin: over the body, the sleeves, and
 * round the neck (the hoodie's cowl, the shirt's collar). A round neckline
 * (the T-shirt's, the jersey's) keeps the body's ease; there `neck` only
 * says how far off the cloth hanging hair lies (`clothesOver`).
 */
const EASE: Readonly<Record<ClothingStyle, { body: number; sleeve: number; neck: number }>> = {
  tshirt: { body: 0.011, sleeve: 0.013, neck: 0.011 },
  hoodie: { body: 0.02, sleeve: 0.019, neck: 0.026 },
  shirt: { body: 0.01, sleeve: 0.011, neck: 0.012 },
  jersey: { body: 0.016, sleeve: 0.016, neck: 0.019 },
};

/** How far (m) a top stands off the tops of the shoulders, where it rests on them. */
const RESTS_ON_SHOULDERS = 0.005;

/**
 * How far a top stands off the skin of the neck and shoulders, at most, and
 * at a point there: hair hanging there lies on it, and on the hoodie's hood.
 */
export function clothesOver(style: ClothingStyle, p: Proportions): (q: Vec3) => number {
  const ease = Math.max(EASE[style].body, EASE[style].neck);
  return style === 'hoodie' ? (q) => ease + hoodRise(p, q, HEAD_TURN) : () => ease;
}

/**
 * How far (rad) round the neck hair lying on the hood may turn with the head
 * (30°, on a neck turned 10°) over a thicker part of it. It lies low, where
 * the head's turn reaches it only in part: 15° keeps it out of the hood in
 * those poses (the hair fit tests); the whole 40° stood it off the sides of
 * the neck in wings.
 */
const HEAD_TURN = (15 * Math.PI) / 180;

/**
 * Garments are the body's own tubes, inflated and cut between body
 * landmarks, so they fit every body shape and age and move with its bones:
 * T-shirt (short sleeves), hoodie (thick, long sleeves, cowl, lowered hood,
 * front pocket and drawstrings), shirt (long sleeves, collar, buttons),
 * jersey (sleeveless, V-necked, with a white trim at the hem).
 */
export async function buildClothing(style: ClothingStyle, t: BodyTemplate): Promise<Part[]> {
  const plan = t.plan;
  const arm = plan.arms[0];
  const cloth = new MeshBuilder();
  const extra = new MeshBuilder();
  // Vertices of `extra` laid on the cloth's front, which ride on it when the avatar is reshaped.
  const riders: number[] = [];
  const laidOnCloth = (lay: () => void) => {
    const first = extra.vertexCount;
    lay();
    for (let v = first; v < extra.vertexCount; v++) riders.push(v);
  };
  const p = t.proportions;
  const hemY = (lower: number) => p.hipJointY + (p.hipsY - p.hipJointY) * lower;
  const sleeveX = (from: string, to: string, f: number) => {
    const x = (label: string) => arm.sections.find((s) => s.label === label)!.centre[0];
    return x(from) + (x(to) - x(from)) * f;
  };
  const elbowX = sleeveX('elbow', 'elbow', 0);
  const neckline = (style: NecklineStyle): Neckline => {
    const n = NECKLINES[style];
    return {
      z: neckZ(p) + 0.35 * p.neckRadius,
      radius: n.radius * p.neckRadius,
      backRadius: n.back * p.neckRadius,
      front: p.neckBaseY + n.front * p.neckRadius,
      back: p.neckBaseY + n.rear * p.neckRadius,
      backRise: n.rearRise * p.neckRadius,
    };
  };
  /**
   * A top: the torso from the hem up, the arms out to `sleeve`, and with a
   * collar the neck up to `collar` above its base, else a round neckline;
   * `edges` adds round armholes or a waistband.
   */
  const top = (
    lower: number,
    ease: number,
    sleeve: number,
    sleeveEase: number,
    collar: { height: number; ease: number } | NecklineStyle,
    edges: Pick<GarmentCut, 'armhole' | 'hemBand'> = {},
  ) => {
    const body = hangingTop(t, ease);
    // A long sleeve (past the elbow) closes in a cuff; the T-shirt's stays open.
    const sleeves = looseSleeves(t, sleeveEase, sleeve > elbowX ? sleeve : undefined);
    appendOffsetGarment(cloth, t, {
      // The thighs' skin reaches up the sides of the hips past any hem: a top covers it
      // there too (its hem cuts it straight), or skin would show between top and trousers.
      ease: (r) =>
        TORSO.has(r.tube) || LEGS.has(r.tube)
          ? ease
          : onArm(r)
            ? sleeveEase
            : r.tube === 'neck'
              ? typeof collar === 'string'
                ? ease
                : collar.ease
              : null,
      hang: (r, q) => sleeves(r, body(r, q)),
      resting: RESTS_ON_SHOULDERS,
      bottom: hemY(lower),
      ...(typeof collar === 'string'
        ? { neckline: neckline(collar), band: BAND }
        : { top: p.neckBaseY + collar.height }),
      sleeve,
      ...edges,
    });
  };
  switch (style) {
    case 'tshirt':
      top(0.2, EASE.tshirt.body, sleeveX('biceps', 'elbow', 0.35), EASE.tshirt.sleeve, 'crew');
      break;
    case 'hoodie': {
      top(
        -0.1,
        EASE.hoodie.body,
        sleeveX('forearm', 'wrist', 0.92),
        EASE.hoodie.sleeve,
        { height: HOODIE_COWL_HEIGHT, ease: EASE.hoodie.neck },
        { hemBand: HOODIE_WAISTBAND },
      );
      // The front pocket: wider at the bottom than the top, its slanted sides the openings.
      // Without it the hoodie's front was a plain sweatshirt's.
      const hem = hemY(-0.1);
      const [low, high] = [POCKET.from, POCKET.to].map((f) => hem + f * (p.waistY - hem));
      const [wide, narrow] = [POCKET.bottomWidth, POCKET.topWidth].map((f) => f * p.hips.halfWidth);
      appendClothPatch(cloth, {
        bottomLeft: [-wide!, low!],
        bottomRight: [wide!, low!],
        topRight: [narrow!, high!],
        topLeft: [-narrow!, high!],
        columns: 10,
        rows: 4,
        // At 4 mm its outline did not show in a full-body render.
        thickness: 0.008,
      });
      appendLoweredHood(cloth, t);
      // Drawstrings hanging from the cowl's top edge, lying on its front and the hoodie's.
      const clothFront = clothFrontOf(cloth);
      for (const x of [-0.025, 0.025])
        laidOnCloth(() => appendDrawstring(extra, t, cloth, x, clothFront));
      break;
    }
    case 'shirt': {
      top(0.05, EASE.shirt.body, sleeveX('forearm', 'wrist', 0.95), EASE.shirt.sleeve, {
        height: SHIRT_COLLAR_HEIGHT,
        ease: EASE.shirt.neck,
      });
      // From just under the collar, where the chest's cloth turns up into it.
      appendPlacket(cloth, t, p.neckBaseY - 0.015, hemY(0.05) + 0.005);
      // The collar's points, folded down over its stand onto the chest either side of the
      // placket: without them the collar was a band round the neck, a mandarin collar's.
      const collarTop = p.neckBaseY + SHIRT_COLLAR_HEIGHT;
      const r = p.neckRadius;
      const point = (x: number, y: number): FrontPoint => [x * r, y];
      appendPatchPair(cloth, {
        inner: [point(0.25, p.neckBaseY - 0.5 * r), point(0.1, collarTop - 0.1 * r)],
        outer: [point(0.9, p.neckBaseY - 1.1 * r), point(0.85, collarTop - 0.15 * r)],
        columns: 3,
        rows: 4,
        thickness: 0.003,
      });
      // On the placket, now part of the cloth.
      const onPlacket = clothFrontOf(cloth);
      laidOnCloth(() => appendButtons(extra, t, (y) => onPlacket(0, y)));
      break;
    }
    case 'jersey': {
      // Round armholes cut in from the shoulder, round the arm's root: cut level with the
      // shoulder instead, the cloth over the deltoid swung down with the arm and stood off the
      // shoulders like pads in the idle pose. Cut at the shoulders' edge, the hole's rim stood
      // on the crease under the arm and the skin there showed past it with the arms lowered.
      const root = arm.sections.find((s) => s.label === 'shoulder')!;
      top(0.35, EASE.jersey.body, root.centre[0], EASE.jersey.body, 'scoop', {
        armhole: { centre: root.centre, radius: ARMHOLE * Math.max(root.halfU, root.halfV) },
      });
      // Trim round the hem: a band cut from the skin like the jersey, standing just off it. A
      // band of the torso's tube followed the tube, not the skin: round the neck it floated off
      // the back and was buried at the front, and round the hips the jersey's hem came through
      // it in red teeth, with skin showing between the two over the hip bones.
      appendOffsetGarment(extra, t, {
        ease: (r) => (TORSO.has(r.tube) || LEGS.has(r.tube) ? EASE.jersey.body + TRIM_OVER : null),
        hang: hangingTop(t, EASE.jersey.body + TRIM_OVER),
        bottom: hemY(0.35),
        top: hemY(0.9),
      });
      break;
    }
  }
  const trousers = new MeshBuilder();
  const legs = straightLegs(t, TROUSER_EASE);
  const span = crotchSpan(t, TROUSER_EASE);
  // Up past the top's hem, so no skin shows at the waist; down to a level hem at the ankle,
  // over the shoes' collars. (Ending where the legs' skin meets the feet's, it ended in teeth.)
  appendOffsetGarment(trousers, t, {
    ease: (r) => (TORSO.has(r.tube) || LEGS.has(r.tube) || FEET.has(r.tube) ? TROUSER_EASE : null),
    hang: (r, q) => span(legs(r, q)),
    top: hemY(0.6),
    bottom: p.ankleY,
  });
  appendBackPockets(trousers, p);
  const parts: Part[] = [
    {
      name: 'Trousers',
      mesh: trousers,
      material: texturedMaterial(
        `Trousers_${style}`,
        await grainTexture(TROUSER_COLOURS[style], 'twill'),
        { roughness: 0.9, doubleSided: true },
      ),
    },
    {
      name: 'Clothing',
      mesh: cloth,
      material: texturedMaterial(
        `Clothing_${style}`,
        await grainTexture(CLOTHING_COLOURS[style], WEAVES[style]),
        { roughness: 0.85, doubleSided: true },
      ),
    },
  ];
  if (extra.triangleCount > 0) {
    const detail = DETAILS[style];
    parts.push({
      name: 'ClothingDetail',
      mesh: extra,
      material: texturedMaterial(
        `ClothingDetail_${style}`,
        await grainTexture(detail.colour, detail.grain),
        { roughness: 0.6 },
      ),
      ...(riders.length > 0 ? { ridesOn: ridingOn('Clothing', cloth, extra, riders) } : {}),
    });
  }
  return parts;
}

/**
 * The trousers' back pockets, in hip half-widths (so a child's are a
 * child's size): how far out from the seat's seam each reaches at its top
 * and at its bottom, and how far below the hip joints' height its top lies,
 * how far below the crotch its bottom.
 */
const BACK_POCKET = {
  top: { inner: 0.24, outer: 0.7, below: 0.07 },
  bottom: { inner: 0.3, outer: 0.64, below: 0.12 },
} as const;

/**
 * Patch pockets on the seat, one either side: without them, from behind,
 * the trousers read as tights.
 */
function appendBackPockets(trousers: MeshBuilder, p: Proportions): void {
  const h = p.hips.halfWidth;
  const top = p.hipJointY - BACK_POCKET.top.below * h;
  const bottom = p.crotchY - BACK_POCKET.bottom.below * h;
  const point = (x: number, y: number): FrontPoint => [x * h, y];
  appendPatchPair(trousers, {
    facing: -1,
    inner: [point(BACK_POCKET.bottom.inner, bottom), point(BACK_POCKET.top.inner, top)],
    outer: [point(BACK_POCKET.bottom.outer, bottom), point(BACK_POCKET.top.outer, top)],
    columns: 4,
    rows: 5,
    thickness: 0.004,
  });
}

/**
 * The hoodie's pocket: where it starts and ends (shares of the way from the
 * hem up to the waist), and how wide it is at the bottom and the top (in
 * hip half-widths).
 */
const POCKET = { from: 0.15, to: 0.9, bottomWidth: 0.8, topWidth: 0.55 } as const;

/** How high (m) the hoodie's cowl rises round the neck. */
const HOODIE_COWL_HEIGHT = 0.05;

/**
 * The hoodie's ribbed waistband: how deep (m), and how far off the skin it
 * gathers the cloth, 3 mm over the trousers (`TROUSER_EASE`): gathered onto
 * them, its hem flickered with their colour in teeth.
 */
const HOODIE_WAISTBAND = { width: 0.06, ease: 0.011 };

/** How high (m) the shirt's collar stands round the neck. */
const SHIRT_COLLAR_HEIGHT = 0.035;

/** The shirt's placket: its half width and thickness (m). */
const PLACKET_HALF_WIDTH = 0.016;
const PLACKET_THICKNESS = 0.002;

/**
 * The band down a shirt's front that carries its buttons, from the collar
 * to the hem, lying on the shirt's `cloth`. Without it the shirt read as a
 * long-sleeved T-shirt with a row of dots.
 */
function appendPlacket(mesh: MeshBuilder, t: BodyTemplate, top: number, bottom: number): void {
  const clothFront = clothFrontOf(mesh);
  const sections = Array.from({ length: PLACKET_SECTIONS }, (_, i) => {
    const y = top + ((bottom - top) * i) / (PLACKET_SECTIONS - 1);
    // At its most forward across the placket's width, so its edges do not sink into it.
    const under = Math.max(
      ...[-PLACKET_HALF_WIDTH, 0, PLACKET_HALF_WIDTH].map((x) => clothFront(x, y)),
    );
    return {
      centre: [0, y, under + PLACKET_THICKNESS / 2] as Vec3,
      halfU: PLACKET_HALF_WIDTH,
      halfV: PLACKET_THICKNESS / 2,
    };
  });
  piece(
    mesh,
    t,
    {
      name: 'placket',
      direction: [0, -1, 0],
      u: [1, 0, 0],
      // A flat band: eight round a section, boxy with the exponent, one ring a section.
      segments: 8,
      rings: PLACKET_SECTIONS,
      ...TUBE_DEFAULTS,
      exponent: 6,
      bones: ['Spine', 'Spine1', 'Spine2'],
      falloff: 0.05,
      sections,
    },
    { capStart: true, capEnd: true },
  );
}

/** Sections close enough (1.5 cm apart) to follow the chest's curve down the placket. */
const PLACKET_SECTIONS = 36;

/** Buttons down the shirt's front: small flat discs on what lies at `front(y)` (z). */
function appendButtons(mesh: MeshBuilder, t: BodyTemplate, front: (y: number) => number): void {
  const p = t.proportions;
  const count = 6;
  const top = p.shoulderY - 0.02;
  const bottom = p.hipsY + 0.02;
  for (let k = 0; k < count; k++) {
    const y = top + ((bottom - top) * k) / (count - 1);
    const depth = front(y) + 0.002;
    piece(
      mesh,
      t,
      {
        name: 'button',
        direction: [0, 0, 1],
        u: [1, 0, 0],
        segments: 8,
        rings: 2,
        ...TUBE_DEFAULTS,
        bones: ['Spine', 'Spine1', 'Spine2'],
        falloff: 0.05,
        sections: [
          { centre: [0, y, depth - 0.002], halfU: 0.0055, halfV: 0.0055 },
          { centre: [0, y, depth + 0.0015], halfU: 0.005, halfV: 0.005 },
        ],
      },
      { capStart: true, capEnd: true },
    );
  }
}

/**
 * A drawstring from the cowl's top edge down its front and the chest, lying
 * on the cloth, whose front reaches `front(x, y)` (z). It started at the
 * neck's base, 5 cm under the cowl's edge: two cords floating on the chest,
 * coming out of nothing.
 */
function appendDrawstring(
  mesh: MeshBuilder,
  t: BodyTemplate,
  cloth: MeshBuilder,
  x: number,
  front: (x: number, y: number) => number,
): void {
  const p = t.proportions;
  const first = mesh.vertexCount;
  const top = p.neckBaseY + HOODIE_COWL_HEIGHT - 0.012;
  const length = top - p.neckBaseY + 0.135;
  const r = 0.003;
  // Sections close enough to follow the chest's curve: with three, the string ran straight
  // between them and sank into the cloth over a full chest.
  const sections = Array.from({ length: DRAWSTRING_SECTIONS }, (_, i) => {
    const f = i / (DRAWSTRING_SECTIONS - 1);
    const y = top - f * length;
    const sx = x * (1 + 0.1 * f);
    // Off the cloth along its normal, not straight forward: where the cloth turns from the
    // cowl onto a full chest, a cord set forward lay with its back in the cloth.
    const h = 0.002; // the step (m) of the cloth front's slopes
    const normal = normalize([
      (front(sx - h, y) - front(sx + h, y)) / (2 * h),
      (front(sx, y - h) - front(sx, y + h)) / (2 * h),
      1,
    ]);
    return { centre: addScaled([sx, y, front(sx, y)], normal, r), halfU: r, halfV: r };
  });
  piece(
    mesh,
    t,
    {
      name: 'drawstring',
      direction: [0, -1, 0],
      u: [1, 0, 0],
      // Five round, not six: rings 7 mm apart keep it off the cloth where the chest curves
      // under it (at 1 cm it dipped 3 mm into it), and the hoodie is the heaviest outfit,
      // near the triangle budget.
      segments: 5,
      rings: 26,
      ...TUBE_DEFAULTS,
      bones: ['Spine2', 'Neck'],
      falloff: 0.04,
      sections,
    },
    { capStart: true, capEnd: true },
  );
  // It takes the weights of the cloth it lies on, or scaling the chest (bone_scale) moves
  // the two apart and buries it. The cloth's vertices lie a few centimetres apart.
  skinLikeNearest(mesh, first, cloth, 0.05);
}

const DRAWSTRING_SECTIONS = 13;
