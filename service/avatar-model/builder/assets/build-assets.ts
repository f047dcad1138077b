import type { BodyTemplate } from '../body-template.js';
import type { HeadFrame } from '../head-builder.js';
import { texturedMaterial, translucentMaterial } from '../materials.js';
import { grainTexture } from '../outfits/grain-texture.js';
import type { Part } from '../part.js';
import { buildClothing, clothesOver } from './clothing.js';
import { buildEyewear } from './eyewear.js';
import { buildFootwear } from './footwear.js';
import { buildHair } from './hair.js';
import { hairMaterial } from './hair-strands.js';
import type { ChosenAssets } from './resolve-assets.js';

/** Garments and shoes depend only on the body, its age and the style: made once each. */
const bodyAssets = new Map<string, Part[] | Promise<Part[]>>();

function cachedForBody(
  template: BodyTemplate,
  key: string,
  make: () => Part[] | Promise<Part[]>,
): Part[] | Promise<Part[]> {
  const full = `${template.key}|${key}`;
  let parts = bodyAssets.get(full);
  if (!parts) {
    parts = make();
    bodyAssets.set(full, parts);
  }
  return parts;
}

/** The meshes of every chosen asset, skinned and ready for bone scaling. */
export async function buildAssets(
  chosen: ChosenAssets,
  template: BodyTemplate,
  head: HeadFrame,
): Promise<Part[]> {
  const parts: Part[] = [];
  if (chosen.clothing) {
    const style = chosen.clothing.style;
    parts.push(
      ...(await cachedForBody(template, `clothing:${style}`, () => buildClothing(style, template))),
    );
  }
  if (chosen.footwear) {
    const style = chosen.footwear.style;
    parts.push(
      ...(await cachedForBody(template, `footwear:${style}`, () => buildFootwear(style, template))),
    );
  }
  if (chosen.hair) {
    const { style, colour } = chosen.hair;
    const material =
      style === 'beanie' || style === 'cap'
        ? texturedMaterial(
            `Headwear_${style}`,
            // A beanie is knitted in ribs; a cap is cotton twill.
            await grainTexture(colour ?? '#3b2a1e', style === 'beanie' ? 'rib' : 'twill'),
            { roughness: 0.9, doubleSided: true },
          )
        : hairMaterial(`Hair_${style}`, colour ?? '#3b2a1e');
    parts.push(
      ...buildHair(
        style,
        head,
        template.proportions,
        template.skeleton,
        template.body,
        template.field,
        material,
        chosen.clothing ? clothesOver(chosen.clothing.style, template.proportions) : undefined,
      ),
    );
  }
  if (chosen.eyewear) {
    const lens = translucentMaterial(
      `GlassesLens_${chosen.eyewear.style}`,
      chosen.eyewear.colour ?? '#ffffff33',
    );
    parts.push(...buildEyewear(chosen.eyewear.style, head, lens));
  }
  return parts;
}
