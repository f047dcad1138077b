import { hexMaterial } from '../materials.js';
import { MeshBuilder } from '../mesh-builder.js';
import type { BodyTemplate } from '../body-template.js';
import type { Part } from '../part.js';
import { skinLikeBody } from '../outfits/transfer-weights.js';
import {
  appendTube,
  sectionFraction,
  TUBE_DEFAULTS,
  type TubeOptions,
  type TubeSpec,
} from '../tube.js';

export const CLOTHING_STYLES = ['tshirt', 'hoodie', 'shirt', 'jersey'] as const;
export type ClothingStyle = (typeof CLOTHING_STYLES)[number];

/** The clothing slot has no colour of its own: each garment has its colour. */
export const CLOTHING_COLOURS: Readonly<Record<ClothingStyle, string>> = {
  tshirt: '#e8e6e1',
  hoodie: '#5a6472',
  shirt: '#9cc2e4',
  jersey: '#c0392b',
};
const TRIM_COLOUR = '#f4f4f4';

/** Every outfit has full-length trousers: the legs are never bare. */
export const TROUSER_COLOURS: Readonly<Record<ClothingStyle, string>> = {
  tshirt: '#3b5a85',
  hoodie: '#30343f',
  shirt: '#b3a07a',
  jersey: '#1f2a44',
};

/** Appends part of a body tube, inflated, and skins it with the weights of the body under it. */
function piece(mesh: MeshBuilder, t: BodyTemplate, spec: TubeSpec, options: TubeOptions): void {
  const open = { capStart: false, capEnd: false, ...options };
  const first = appendTube(mesh, spec, open);
  skinLikeBody(mesh, first, t, spec, open);
}

const between = (spec: TubeSpec, a: string, b: string, t: number) =>
  sectionFraction(spec, a) + (sectionFraction(spec, b) - sectionFraction(spec, a)) * t;

/** A band around the neck: the collar of a shirt or the cowl of a hood. */
function collar(
  t: BodyTemplate,
  height: number,
  flare: number,
  back: number,
  thickness: number,
): TubeSpec {
  const p = t.proportions;
  const neck = t.plan.neck;
  const base = neck.sections.find((s) => s.label === 'base')!.centre;
  const r = p.neckRadius;
  return {
    name: 'collar',
    direction: [0, 1, 0],
    u: [1, 0, 0],
    segments: 28,
    rings: 6,
    exponent: 2.2,
    capStart: false,
    capEnd: false,
    bones: ['Spine2', 'Neck'],
    falloff: 0.04,
    sections: [
      {
        centre: [0, base[1] - 0.03, base[2] - back * 0.5],
        halfU: r + thickness + flare,
        halfV: r + thickness + flare * 0.9,
      },
      {
        centre: [0, base[1] - 0.03 + height, base[2] - back],
        halfU: r + thickness,
        halfV: r + thickness * 0.9,
      },
    ],
  };
}

/**
 * Garments are the body's own tubes, inflated and cut between body
 * landmarks, so they fit every body shape and age and move with its bones:
 * T-shirt (short sleeves), hoodie (thick, long sleeves, cowl hood and
 * drawstrings), shirt (long sleeves, collar, buttons), jersey (sleeveless
 * with white trim).
 */
export function buildClothing(style: ClothingStyle, t: BodyTemplate): Part[] {
  const plan = t.plan;
  const torso = plan.torso;
  const cloth = new MeshBuilder();
  const extra = new MeshBuilder();
  const hem = (lower: number) => between(torso, 'hip', 'belt', lower);
  const sleeves = (to: number, inflate: number) => {
    for (const arm of plan.arms)
      piece(cloth, t, arm, { inflate, from: 0, to, rings: Math.max(4, Math.round(34 * to)) });
  };
  switch (style) {
    case 'tshirt':
      piece(cloth, t, torso, { inflate: 0.011, from: hem(0.2), to: 1 });
      sleeves(between(plan.arms[0], 'biceps', 'elbow', 0.35), 0.014);
      break;
    case 'hoodie': {
      piece(cloth, t, torso, { inflate: 0.022, from: hem(-0.1), to: 1 });
      sleeves(between(plan.arms[0], 'forearm', 'wrist', 0.92), 0.02);
      piece(cloth, t, collar(t, 0.07, 0.035, 0.03, 0.028), {});
      // Drawstrings hanging from the front of the cowl.
      const p = t.proportions;
      const z = p.chest.halfDepth + p.bust + 0.03;
      for (const x of [-0.025, 0.025]) {
        const top = p.neckBaseY + 0.005;
        piece(
          extra,
          t,
          {
            name: 'drawstring',
            direction: [0, -1, 0],
            u: [1, 0, 0],
            segments: 6,
            rings: 4,
            ...TUBE_DEFAULTS,
            bones: ['Spine2', 'Neck'],
            falloff: 0.04,
            sections: [
              { centre: [x, top, z * 0.75], halfU: 0.003, halfV: 0.003 },
              { centre: [x * 1.1, top - 0.13, z], halfU: 0.003, halfV: 0.003 },
            ],
          },
          { capStart: true, capEnd: true },
        );
      }
      break;
    }
    case 'shirt': {
      piece(cloth, t, torso, { inflate: 0.009, from: hem(0.05), to: 1 });
      sleeves(between(plan.arms[0], 'forearm', 'wrist', 0.95), 0.011);
      piece(cloth, t, collar(t, 0.045, 0.006, 0.006, 0.012), {});
      appendButtons(extra, t);
      break;
    }
    case 'jersey': {
      piece(cloth, t, torso, {
        inflate: 0.016,
        from: hem(0.35),
        to: between(torso, 'shoulderTop', 'neck', 0.55),
      });
      // Trim: neckline and hem.
      piece(extra, t, torso, {
        inflate: 0.019,
        from: between(torso, 'shoulderTop', 'neck', 0.4),
        to: between(torso, 'shoulderTop', 'neck', 0.6),
        rings: 3,
      });
      piece(extra, t, torso, { inflate: 0.019, from: hem(0.35), to: hem(0.55), rings: 3 });
      break;
    }
  }
  const trousers = new MeshBuilder();
  // Up past the top's hem, so no skin shows at the waist; down into the shoes.
  piece(trousers, t, torso, { inflate: 0.008, from: 0, to: hem(0.6) });
  for (const leg of plan.legs) piece(trousers, t, leg, { inflate: 0.009, from: 0, to: 1 });
  const parts: Part[] = [
    {
      name: 'Trousers',
      mesh: trousers,
      material: hexMaterial(`Trousers_${style}`, TROUSER_COLOURS[style], {
        roughness: 0.9,
        doubleSided: true,
      }),
    },
    {
      name: 'Clothing',
      mesh: cloth,
      material: hexMaterial(`Clothing_${style}`, CLOTHING_COLOURS[style], {
        roughness: 0.85,
        doubleSided: true,
      }),
    },
  ];
  if (extra.triangleCount > 0) {
    const colour = style === 'hoodie' ? '#d9d9d9' : TRIM_COLOUR;
    parts.push({
      name: 'ClothingDetail',
      mesh: extra,
      material: hexMaterial(`ClothingDetail_${style}`, colour, { roughness: 0.6 }),
    });
  }
  return parts;
}

/** Buttons down the shirt's front: small flat discs. */
function appendButtons(mesh: MeshBuilder, t: BodyTemplate): void {
  const p = t.proportions;
  const count = 6;
  const top = p.shoulderY - 0.02;
  const bottom = p.hipsY + 0.02;
  for (let k = 0; k < count; k++) {
    const y = top + ((bottom - top) * k) / (count - 1);
    // Sits on the shirt's front: the torso's depth at that height plus the shirt's ease.
    const depth = frontDepth(t, y) + 0.009 + 0.002;
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

/** The torso's front surface (z) at height y, from its sections. */
function frontDepth(t: BodyTemplate, y: number): number {
  const s = t.plan.torso.sections;
  for (let i = 1; i < s.length; i++) {
    const a = s[i - 1]!;
    const b = s[i]!;
    if (y <= b.centre[1]) {
      const f = (y - a.centre[1]) / Math.max(1e-9, b.centre[1] - a.centre[1]);
      return (
        a.centre[2] +
        a.halfV +
        (b.centre[2] + b.halfV - a.centre[2] - a.halfV) * Math.max(0, Math.min(1, f))
      );
    }
  }
  const last = s[s.length - 1]!;
  return last.centre[2] + last.halfV;
}
