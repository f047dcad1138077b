import { sampledHairColour } from '../../processing/hair-analysis.js';
import type { StoredAnalysis } from '../../processing/processing-repo.js';

/**
 * The hair colour the photos show, for a hair asset whose colour is null;
 * null (the asset's default colour applies) for a bald head, and for a
 * sample that is the skin's own colour, which analyses stored before hair
 * was judged may hold.
 */
export function seenHairColour(analysis: StoredAnalysis): string | null {
  if (analysis.hair) return analysis.hair.style === 'bald' ? null : analysis.hair.colour;
  return sampledHairColour({
    hairColor: analysis.hair_color,
    skinColor: analysis.skin_tone ?? analysis.photos['image-frontal'].faces[0]?.skinColor ?? null,
  });
}
