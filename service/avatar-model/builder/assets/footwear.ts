import type { BodyTemplate } from '../body-template.js';
import { hexMaterial } from '../materials.js';
import { MeshBuilder } from '../mesh-builder.js';
import type { Part } from '../part.js';
import { skinByDistance } from '../skin-weights.js';
import { skinLikeBody } from '../outfits/transfer-weights.js';
import { appendTube, sectionFraction, type TubeOptions, type TubeSpec } from '../tube.js';

export const FOOTWEAR_STYLES = ['sneakers', 'boots', 'loafers'] as const;
export type FootwearStyle = (typeof FOOTWEAR_STYLES)[number];

interface ShoeStyle {
  upper: string;
  sole: string;
  soleThickness: number;
  /** Ease of the upper over the foot. */
  inflate: number;
  /** The upper is flattened above this height (fraction of the foot's height): a low-cut shoe. */
  cut: number | null;
  /** The shaft climbs the leg up to this leg section, for boots. */
  shaftTo: string | null;
  roughness: number;
}

const STYLES: Readonly<Record<FootwearStyle, ShoeStyle>> = {
  sneakers: {
    upper: '#34506e',
    sole: '#f3f3f0',
    soleThickness: 0.024,
    inflate: 0.008,
    cut: null,
    shaftTo: null,
    roughness: 0.8,
  },
  boots: {
    upper: '#5b3a22',
    sole: '#241710',
    soleThickness: 0.03,
    inflate: 0.01,
    cut: null,
    shaftTo: 'shin',
    roughness: 0.55,
  },
  loafers: {
    upper: '#2a170d',
    sole: '#120c08',
    soleThickness: 0.012,
    inflate: 0.004,
    cut: 0.78,
    shaftTo: null,
    roughness: 0.3,
  },
};

/**
 * Shoes are the body's foot tubes inflated, standing on a sole slab that
 * follows the foot's outline: sneakers (navy, thick white sole, a collar at
 * the ankle), boots (brown, a shaft up the shin, dark heavy sole), loafers
 * (low-cut, glossy, thin sole). Nothing goes below the ground (y = 0).
 */
export function buildFootwear(style: FootwearStyle, t: BodyTemplate): Part[] {
  const spec = STYLES[style];
  const p = t.proportions;
  const upper = new MeshBuilder();
  const sole = new MeshBuilder();
  for (const [k, foot] of t.plan.feet.entries()) {
    const leg = t.plan.legs[k]!;
    let first = appendTube(upper, foot, { inflate: spec.inflate });
    const limit = spec.cut === null ? Infinity : spec.cut * p.footHeight;
    for (let v = first; v < upper.vertexCount; v++) {
      const q = upper.position(v);
      upper.setPosition(v, [q[0], Math.min(limit, Math.max(spec.soleThickness * 0.5, q[1])), q[2]]);
    }
    skinLikeBody(upper, first, t, foot, { inflate: spec.inflate });
    const shaft: TubeOptions | undefined = spec.shaftTo
      ? { inflate: spec.inflate + 0.004, from: sectionFraction(leg, spec.shaftTo), to: 1 }
      : style === 'sneakers'
        ? { inflate: spec.inflate, from: sectionFraction(leg, 'ankle') - 0.02, to: 1, rings: 4 }
        : undefined;
    if (shaft) {
      const open = { ...shaft, capStart: false, capEnd: false };
      first = appendTube(upper, leg, open);
      skinLikeBody(upper, first, t, leg, open);
    }
    first = appendTube(sole, soleSpec(foot, spec.soleThickness, spec.inflate + 0.004));
    skinByDistance(sole, first, t.skeleton, foot.bones, foot.falloff);
  }
  return [
    {
      name: 'Shoes',
      mesh: upper,
      material: hexMaterial(`Shoes_${style}`, spec.upper, {
        roughness: spec.roughness,
        doubleSided: true,
      }),
    },
    {
      name: 'ShoeSoles',
      mesh: sole,
      material: hexMaterial(`ShoeSoles_${style}`, spec.sole, { roughness: 0.9 }),
    },
  ];
}

/** A slab under the foot with the foot's outline, from the ground up to `thickness`. */
function soleSpec(foot: TubeSpec, thickness: number, margin: number): TubeSpec {
  return {
    ...foot,
    name: `${foot.name}Sole`,
    exponent: 3,
    sections: foot.sections.map((s) => ({
      ...(s.label ? { label: s.label } : {}),
      centre: [s.centre[0], thickness / 2, s.centre[2]],
      halfU: s.halfU + margin,
      halfV: thickness / 2,
    })),
  };
}
