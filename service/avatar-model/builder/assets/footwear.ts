import type { BodyTemplate } from '../body-template.js';
import { texturedMaterial } from '../materials.js';
import { grainTexture, type Grain } from '../outfits/grain-texture.js';
import { MeshBuilder } from '../mesh-builder.js';
import type { Part } from '../part.js';
import { skinByDistance } from '../skin-weights.js';
import { appendOffsetGarment } from '../outfits/offset-garment.js';
import { appendLaces } from '../outfits/shoe-laces.js';
import type { Proportions } from '../proportions.js';
import { appendTube, type TubeSpec } from '../tube.js';
import type { Vec3 } from '../vec3.js';
import type { BodyField } from '../body-field.js';

export const FOOTWEAR_STYLES = ['sneakers', 'boots', 'loafers'] as const;
export type FootwearStyle = (typeof FOOTWEAR_STYLES)[number];

interface ShoeStyle {
  upper: string;
  upperGrain: Grain;
  /** The laces' colour; loafers have none. */
  laces?: string;
  sole: string;
  soleGrain: Grain;
  soleThickness: number;
  /** Ease of the upper over the foot. */
  inflate: number;
  /** Where the upper's collar is, in metres above (or below) the ankle joint. */
  collar: (p: Proportions) => number;
  roughness: number;
}

const STYLES: Readonly<Record<FootwearStyle, ShoeStyle>> = {
  sneakers: {
    // Navy canvas merged with the T-shirt outfit's blue jeans in every full-body picture.
    upper: '#bfc4cb',
    upperGrain: 'canvas',
    laces: '#f4f4f2',
    sole: '#f3f3f0',
    soleGrain: 'rubber',
    soleThickness: 0.024,
    inflate: 0.008,
    collar: () => 0.03,
    roughness: 0.8,
  },
  boots: {
    upper: '#5b3a22',
    upperGrain: 'leather',
    laces: '#2b1d14',
    sole: '#241710',
    soleGrain: 'rubber',
    soleThickness: 0.03,
    inflate: 0.01,
    // Up the shin, as far as the shin's own section of the leg.
    collar: (p) => 0.28 * (p.kneeY - p.ankleY),
    roughness: 0.55,
  },
  loafers: {
    upper: '#2a170d',
    upperGrain: 'leather',
    sole: '#120c08',
    soleGrain: 'leather',
    soleThickness: 0.012,
    inflate: 0.004,
    // Low-cut: the collar runs round just over the instep, under the sneakers' one.
    collar: () => 0.008,
    roughness: 0.3,
  },
};

/** The colour (sRGB hex) of each style's upper. */
export function upperColour(style: FootwearStyle): string {
  return STYLES[style].upper;
}

const FEET = new Set(['leftFoot', 'rightFoot']);
const LEGS = new Set(['leftLeg', 'rightLeg']);
/**
 * How far the shoe stands off the trousers' cuff inside it (m): the trousers
 * end inside the shoe, so above the foot the shoe lies over them.
 */
const OVER_TROUSERS = 0.012;
/**
 * How many times finer the upper's grain is than the body's texture
 * coordinates give it. Those tile about three times a metre, and across the
 * foot's slopes as little as once: a texel of the grain stretched over up to
 * 8 mm, and the canvas showed as streaks and blotches 1–2 cm across.
 */
const UPPER_TILES = 3;
/** The upper's floor (m above the ground): it wraps the foot's underside, inside the sole. */
const UPPER_FLOOR = 0.004;
/**
 * How high (m) the skin under a shod foot is raised, inside the upper's floor
 * (`liftShodSkin`).
 */
const SHOD_SKIN_FLOOR = UPPER_FLOOR + 0.0015;

/**
 * A copy of the body with the skin under the feet, in the shoes, raised above
 * the upper's floor. The body stands on the ground: the skin under the foot
 * lay 0.6 mm below the sole's underside and the upper's floor 4 mm above it,
 * so from below, as a lifted foot in a stride shows it, the sole was blotched
 * with skin. Only the feet reach this low, and the shoe hides what is
 * flattened. A copy, as the body may be the template's own, shared by every
 * build; it shares the body's triangles and influences, as `movedTo` does.
 */
export function liftShodSkin(body: MeshBuilder): MeshBuilder {
  const positions = body.positions.slice();
  for (let y = 1; y < positions.length; y += 3) {
    if (positions[y]! < SHOD_SKIN_FLOOR) positions[y] = SHOD_SKIN_FLOOR;
  }
  return body.movedTo(positions);
}

/** The sole's top is sunk this far (m) past the upper's outline, so no step of it shows inside. */
const SINK_MARGIN = 0.002;

/**
 * Shoes are cut from the body's own skin like the clothes: the foot, and the
 * leg up to the style's collar, each corner moved out along the skin's
 * normal, with the skin's weights. (Made from the foot tube alone they missed
 * the skin where the foot and leg tubes blend, and the ankle bones came out
 * through them.) They stand on a sole slab that follows the foot's outline:
 * sneakers (light grey canvas, white laces, thick white rubber sole, a collar
 * above the ankle), boots (brown leather, dark laces, a shaft up the shin,
 * dark heavy sole), loafers (low-cut, glossy leather, thin sole). Nothing
 * goes below the ground (y = 0).
 */
export async function buildFootwear(style: FootwearStyle, t: BodyTemplate): Promise<Part[]> {
  const spec = STYLES[style];
  const p = t.proportions;
  const upper = new MeshBuilder();
  const sole = new MeshBuilder();
  const walls = new Set<number>();
  appendOffsetGarment(upper, t, {
    ease: (r) =>
      FEET.has(r.tube)
        ? spec.inflate
        : LEGS.has(r.tube)
          ? Math.max(spec.inflate, OVER_TROUSERS)
          : null,
    top: p.ankleY + spec.collar(p),
  });
  // The upper wraps the foot's underside too, inside the sole and just above the ground.
  for (let v = 0; v < upper.vertexCount; v++) {
    const q = upper.position(v);
    upper.setPosition(v, [q[0], Math.max(UPPER_FLOOR, q[1]), q[2]]);
  }
  for (let i = 0; i < upper.uvs.length; i++) upper.uvs[i]! *= UPPER_TILES;
  for (const foot of t.plan.feet) {
    const reach = upperReach(upper, foot, spec.soleThickness);
    const first = appendTube(sole, soleSpec(foot, spec.soleThickness, reach));
    skinByDistance(sole, first, t.skeleton, foot.bones, foot.falloff);
    for (const v of wallVertices(sole, first)) walls.add(v);
  }
  sinkTop(sole, t.field, spec, walls);
  const parts: Part[] = [];
  if (spec.laces !== undefined) {
    const laces = new MeshBuilder();
    appendLaces(laces, upper, t.plan.feet);
    parts.push({
      name: 'ShoeLaces',
      mesh: laces,
      material: texturedMaterial(`ShoeLaces_${style}`, await grainTexture(spec.laces, 'twill'), {
        roughness: 0.8,
      }),
    });
  }
  return [
    ...parts,
    {
      name: 'Shoes',
      mesh: upper,
      material: texturedMaterial(
        `Shoes_${style}`,
        await grainTexture(spec.upper, spec.upperGrain),
        { roughness: spec.roughness, doubleSided: true },
      ),
    },
    {
      name: 'ShoeSoles',
      mesh: sole,
      material: texturedMaterial(
        `ShoeSoles_${style}`,
        await grainTexture(spec.sole, spec.soleGrain),
        { roughness: 0.9 },
      ),
    },
  ];
}

/**
 * Sinks the sole's top inside the upper's outline to under the upper's floor. The
 * upper closes over the foot down into the sole, so only the sole's rim past
 * the upper is ever seen; a top face across the inside of the shoe would be
 * the surface nearest the foot's lower edge, with the skin above it. The
 * walls stay up: sunk with the rest wherever the skin was near, the wall's
 * top corner went too, and round the ball and toes only 10 mm of a 24 mm
 * sole showed.
 */
function sinkTop(
  sole: MeshBuilder,
  field: BodyField,
  spec: ShoeStyle,
  walls: ReadonlySet<number>,
): void {
  for (let v = 0; v < sole.vertexCount; v++) {
    const q = sole.position(v);
    if (q[1] < spec.soleThickness * 0.75 || walls.has(v)) continue;
    let nearest = Infinity;
    for (let y = UPPER_FLOOR; y <= spec.soleThickness; y += 0.003) {
      nearest = Math.min(nearest, field.at([q[0], y, q[2]]));
    }
    if (nearest < spec.inflate + SINK_MARGIN) {
      sole.setPosition(v, [q[0], UPPER_FLOOR / 2, q[2]]);
    }
  }
}

const SOLE_SEGMENTS = 14;
const SOLE_RINGS = 12;
/**
 * How far (m) the sole stands out past the upper. Sized from the foot's plan
 * (its tube's half width plus the upper's ease and 4 mm), the sole was no
 * wider than the upper round the ball and the heel, where the skin's union
 * is wider than the tube, and it rounded in at its top: the upper bulged
 * over it, and of a 24 mm sneaker sole a line of 5–10 mm showed.
 */
const SOLE_OUTSIDE_UPPER = 0.004;
/**
 * The upper's width is read up to this far (m) above the sole's top, where
 * it still bulges over it; its reach past the heel and toes only as low as
 * the sole (read higher, the heel's bulge set the sole's end 1–2 cm behind
 * the heel's foot, a tray round it).
 */
const REACH_ABOVE_SOLE = 0.02;
/** The sole's cross-section: near-vertical walls with rounded edges. */
const SOLE_EXPONENT = 5;

/** A sole ring's vertices this far out across it (share of its half width) are its wall. */
const WALL = 0.9;

/**
 * The vertices of the sole tube appended at `first` that lie on its side
 * walls: SOLE_RINGS rings of SOLE_SEGMENTS + 1 vertices (appendTube's
 * layout), each vertex's place across its own ring.
 */
function wallVertices(sole: MeshBuilder, first: number): number[] {
  const walls: number[] = [];
  const perRing = SOLE_SEGMENTS + 1;
  for (let k = 0; k < SOLE_RINGS; k++) {
    const ring = Array.from({ length: perRing }, (_, j) => first + k * perRing + j);
    const xs = ring.map((v) => sole.position(v)[0]);
    const middle = (Math.max(...xs) + Math.min(...xs)) / 2;
    const half = (Math.max(...xs) - Math.min(...xs)) / 2;
    walls.push(...ring.filter((_, j) => Math.abs(xs[j]! - middle) >= WALL * half));
  }
  return walls;
}

/**
 * How far the upper reaches round one foot, low down: its half width across
 * the foot at each of the foot's sections (the widest within half the way
 * to each neighbouring section, up to REACH_ABOVE_SOLE over the sole's
 * `top`), and how far it reaches behind the first section and in front of
 * the last (up to the sole's top).
 */
interface UpperReach {
  halfWidths: number[];
  heel: number;
  toe: number;
}

function upperReach(upper: MeshBuilder, foot: TubeSpec, top: number): UpperReach {
  const sections = foot.sections;
  const side = Math.sign(sections[0]!.centre[0]);
  const halfWidths = sections.map((s) => s.halfU);
  let heel = sections[0]!.centre[2];
  let toe = sections[sections.length - 1]!.centre[2];
  // Each section's stretch along the foot: half the way to each neighbour.
  const from = sections.map((s, k) =>
    k === 0 ? -Infinity : (s.centre[2] + sections[k - 1]!.centre[2]) / 2,
  );
  for (let v = 0; v < upper.vertexCount; v++) {
    const [x, y, z] = upper.position(v);
    if (y > top + REACH_ABOVE_SOLE || Math.sign(x) !== side) continue;
    if (y <= top) {
      heel = Math.min(heel, z);
      toe = Math.max(toe, z);
    }
    const k = from.findLastIndex((start) => z >= start);
    halfWidths[k] = Math.max(halfWidths[k]!, Math.abs(x - sections[k]!.centre[0]));
  }
  return {
    halfWidths,
    heel: sections[0]!.centre[2] - heel,
    toe: toe - sections[sections.length - 1]!.centre[2],
  };
}

/**
 * A slab under the foot with the upper's outline, from the ground up to
 * `thickness`, standing SOLE_OUTSIDE_UPPER past the upper all round, past
 * the heel and the toes too: the upper's rounded toe and heel run on past
 * the foot's first and last sections.
 */
function soleSpec(foot: TubeSpec, thickness: number, reach: UpperReach): TubeSpec {
  const sections = foot.sections.map((s, k) => ({
    ...(s.label ? { label: s.label } : {}),
    centre: [s.centre[0], thickness / 2, s.centre[2]] as Vec3,
    halfU: reach.halfWidths[k]! + SOLE_OUTSIDE_UPPER,
    halfV: thickness / 2,
  }));
  const first = sections[0]!;
  const last = sections[sections.length - 1]!;
  const beyond = (s: (typeof sections)[number], dz: number) => ({
    centre: [s.centre[0], s.centre[1], s.centre[2] + dz] as Vec3,
    halfU: s.halfU * 0.75,
    halfV: s.halfV,
  });
  return {
    ...foot,
    name: `${foot.name}Sole`,
    // A slab needs fewer than the foot's 18 × 18: the avatar's triangle budget is tight on the
    // heaviest body.
    segments: SOLE_SEGMENTS,
    rings: SOLE_RINGS,
    exponent: SOLE_EXPONENT,
    sections: [
      beyond(first, -(reach.heel + SOLE_OUTSIDE_UPPER)),
      ...sections,
      beyond(last, reach.toe + SOLE_OUTSIDE_UPPER),
    ],
  };
}
