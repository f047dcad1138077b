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
/** The upper's floor (m above the ground): it wraps the foot's underside, inside the sole. */
const UPPER_FLOOR = 0.004;
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
  for (const foot of t.plan.feet) {
    const first = appendTube(sole, soleSpec(foot, spec.soleThickness, spec.inflate + 0.004));
    skinByDistance(sole, first, t.skeleton, foot.bones, foot.falloff);
  }
  sinkTop(sole, t.field, spec);
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
 * the surface nearest the foot's lower edge, with the skin above it.
 */
function sinkTop(sole: MeshBuilder, field: BodyField, spec: ShoeStyle): void {
  for (let v = 0; v < sole.vertexCount; v++) {
    const q = sole.position(v);
    if (q[1] < spec.soleThickness * 0.75) continue;
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
 * A slab under the foot with the foot's outline, from the ground up to
 * `thickness`, reaching `margin` past the heel and the toes too: the skin's
 * rounded toe and heel run on past the foot's first and last sections.
 */
function soleSpec(foot: TubeSpec, thickness: number, margin: number): TubeSpec {
  const sections = foot.sections.map((s) => ({
    ...(s.label ? { label: s.label } : {}),
    centre: [s.centre[0], thickness / 2, s.centre[2]] as Vec3,
    halfU: s.halfU + margin,
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
    exponent: 3,
    sections: [
      beyond(first, -(first.halfV + margin)),
      ...sections,
      beyond(last, last.halfV + margin),
    ],
  };
}
