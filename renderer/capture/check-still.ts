/** Checks an imported photo with the same analyser and guidance as the camera. */
import type { PhotoSlot } from '../../shared/studio/index.js';
import { errorMessage } from '../lib/request-refused.js';
import { faceAnalyser } from './analyser.js';
import { guide, type Checks } from './guidance.js';
import { stillForAnalysis } from './photos.js';

export interface StillCheck {
  checks: Partial<Checks> | null;
  /** What to tell the person; null when the photo looks right. */
  note: string | null;
  yaw: number | null;
}

export async function checkStill(
  slot: PhotoSlot,
  blob: Blob,
  side1Yaw: number | null,
): Promise<StillCheck> {
  const still = await stillForAnalysis(blob);
  if (!still) return { checks: null, note: 'This file could not be read as an image.', yaw: null };
  try {
    const analyser = faceAnalyser();
    await analyser.ready;
    const analysis = await analyser.analyse(still);
    const face = analysis.faces.length === 1 ? analysis.faces[0]! : null;
    const sign = side1Yaw === null ? 0 : side1Yaw > 0 ? 1 : -1;
    const g = guide({ slot, side1Sign: sign, previous: face }, analysis);
    // A still photo has no motion to judge: leave "Steady" out.
    const checks: Partial<Checks> = { ...g.checks };
    delete checks.still;
    let note: string | null = null;
    if (analysis.faces.length === 0) note = 'No face found in this photo.';
    else if (!g.ready) note = `Check: ${g.instruction.toLowerCase()}.`;
    return { checks, note, yaw: face ? face.yaw : null };
  } catch (e) {
    still.close();
    // The photo is still used (the service has the last word); say why it was not checked.
    return {
      checks: null,
      note: `This photo could not be checked here (${errorMessage(e)}); the service will check it.`,
      yaw: null,
    };
  }
}
