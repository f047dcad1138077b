import { describe, expect, it } from 'vitest';
import { normalize, type Vec3 } from './affine.js';
import { renderViews } from './render-views.js';
import { KEY_LIGHT, glossFor, shadeSurface, specularLobe } from './shading.js';
import { luma, modelOf, pixelAt, square, viewOf } from './test-support/test-scenes.js';

const SIZE = 128;

function meanLuma(rgba: Uint8Array, cx: number, cy: number, half = 5): number {
  let sum = 0;
  let count = 0;
  for (let y = cy - half; y <= cy + half; y++) {
    for (let x = cx - half; x <= cx + half; x++, count++) sum += luma(pixelAt(rgba, SIZE, x, y));
  }
  return sum / count;
}

describe('lighting', () => {
  it('makes a surface turned toward the key light brighter than one turned away', () => {
    const [lx, ly] = KEY_LIGHT.direction;
    // Both squares face the camera (view space is world space for this camera): one leans toward
    // the light, the other away from it.
    const toward: Vec3 = normalize([lx, ly, 1]);
    const away: Vec3 = normalize([-lx, -ly, 1]);
    const model = modelOf(square([-0.6, 0, 0], toward, 0.8), square([0.6, 0, 0], away, 0.8));
    const rgba = renderViews(model, [viewOf(SIZE, SIZE)], SIZE, SIZE);
    const lit = meanLuma(rgba, SIZE / 2 - 26, SIZE / 2);
    const shaded = meanLuma(rgba, SIZE / 2 + 26, SIZE / 2);
    expect(lit).toBeGreaterThan(shaded + 40);
    expect(shaded).toBeGreaterThan(20); // fill and ambient keep the shadow side readable
  });

  it('follows the angle to the light (Lambert) and adds a highlight that roughness spreads', () => {
    const out = new Float32Array(3);
    const brightness = (n: Vec3, roughness = 1) => {
      const unit = normalize(n);
      shadeSurface(unit[0], unit[1], unit[2], 0, 0, 1, 0.5, 0.5, 0.5, glossFor(roughness), 0, out);
      return out[0]!;
    };
    const [lx, ly, lz] = KEY_LIGHT.direction;
    expect(brightness([lx, ly, lz])).toBeGreaterThan(brightness([lx, ly, lz + 1]));
    expect(brightness([lx, ly, lz + 1])).toBeGreaterThan(brightness([0, 0, 1]));
    expect(brightness([0, 0, 1])).toBeGreaterThan(brightness([-lx, -ly, -lz]));
    // The mirror direction between light and viewer: a glossy surface peaks higher there.
    const halfway: Vec3 = [lx, ly, lz + 1];
    expect(brightness(halfway, 0.2)).toBeGreaterThan(brightness(halfway, 0.9) + 0.1);
  });

  it('scales the dielectric reflection by KHR_materials_specular and leaves metals whole', () => {
    const [lx, ly, lz] = KEY_LIGHT.direction;
    const halfway = normalize([lx, ly, lz + 1]);
    const shade = (specular: number, metallic: number, albedo = 0.1) => {
      const out = new Float32Array(3);
      const gloss = glossFor(0.4, specular);
      shadeSurface(...halfway, 0, 0, 1, albedo, albedo, albedo, gloss, metallic, out);
      return out[0]!;
    };
    const matte = shade(0, 0, 0.1);
    // Factor 0 is Lambert alone: twice the albedo, twice the light, nothing added.
    expect(shade(0, 0, 0.2)).toBeCloseTo(2 * matte, 6);
    expect(shade(1, 0)).toBeGreaterThan(matte + 0.05);
    // Halfway adds half the reflection.
    expect(shade(0.5, 0) - matte).toBeCloseTo((shade(1, 0) - matte) / 2, 6);
    // A metal's reflection is its colour, not a dielectric's: the factor does not touch it.
    expect(shade(0, 1)).toBeCloseTo(shade(1, 1), 6);
  });

  // The glTF metallic-roughness BRDF (glTF 2.0, Appendix B), written out from the spec.
  it('draws the specular lobe of glTF: GGX with height-correlated Smith visibility', () => {
    for (const roughness of [0.3, 0.5, 0.7, 0.9, 1]) {
      const a = roughness * roughness;
      const a2 = a * a;
      for (const [nDotH, nDotL, nDotV] of [
        [1, 0.65, 1],
        [0.9, 0.5, 0.8],
        [0.5, 0.2, 0.9],
        [0.1, 0.9, 0.3],
      ] as const) {
        const D = a2 / (Math.PI * (nDotH * nDotH * (a2 - 1) + 1) ** 2);
        const V =
          0.5 /
          (nDotL * Math.sqrt(nDotV * nDotV * (1 - a2) + a2) +
            nDotV * Math.sqrt(nDotL * nDotL * (1 - a2) + a2));
        expect(specularLobe(glossFor(roughness), nDotH, nDotL, nDotV)).toBeCloseTo(
          Math.PI * D * V,
          12,
        );
      }
    }
  });

  // With full Fresnel (F = 1) a lobe reflects at most what falls on it: its directional albedo,
  // ∫ BRDF · n·l dω over the hemisphere, stays at or below 1. Single-scattering GGX loses light
  // to masking, more the rougher it is (about 0.42 kept at roughness 0.9 seen head-on).
  it('reflects no more light than it receives, at any roughness and view angle', () => {
    const steps = 200;
    for (const roughness of [0.3, 0.5, 0.9, 1]) {
      const gloss = glossFor(roughness);
      for (const viewPolar of [0, 0.6, 1.2]) {
        const v: Vec3 = [Math.sin(viewPolar), 0, Math.cos(viewPolar)];
        let albedo = 0;
        for (let i = 0; i < steps; i++) {
          const polar = ((i + 0.5) / steps) * (Math.PI / 2);
          for (let j = 0; j < 2 * steps; j++) {
            const around = ((j + 0.5) / (2 * steps)) * 2 * Math.PI;
            const l: Vec3 = [
              Math.sin(polar) * Math.cos(around),
              Math.sin(polar) * Math.sin(around),
              Math.cos(polar),
            ];
            const h = normalize([l[0] + v[0], l[1] + v[1], l[2] + v[2]]);
            const solidAngle =
              Math.sin(polar) * (Math.PI / 2 / steps) * ((2 * Math.PI) / (2 * steps));
            // specularLobe is π · BRDF (see its doc): back to the BRDF for the integral.
            albedo += (specularLobe(gloss, h[2], l[2], v[2]) / Math.PI) * l[2] * solidAngle;
          }
        }
        expect(albedo, `roughness ${roughness}, view ${viewPolar}`).toBeLessThanOrEqual(1.001);
        expect(albedo, `roughness ${roughness}, view ${viewPolar}`).toBeGreaterThan(0.3);
      }
    }
  });
});
