import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { assetPreviewBase64, hasAssetPreview } from '../../shared/assets/asset-previews.js';
import { BUILTIN_ASSETS } from './builtin-catalogue.js';

const decode = (assetId: string) => {
  const base64 = assetPreviewBase64(assetId);
  if (base64 === null) throw new Error(`no preview for ${assetId}`);
  return sharp(Buffer.from(base64, 'base64')).raw().toBuffer({ resolveWithObject: true });
};

describe('built-in asset previews', () => {
  it('gives every built-in asset a preview that decodes as a picture with something in it', async () => {
    for (const asset of BUILTIN_ASSETS) {
      const { data, info } = await decode(asset.id);
      expect(info.width, asset.name).toBeGreaterThanOrEqual(128);
      expect(info.height, asset.name).toBe(info.width);
      expect(info.channels, asset.name).toBe(4);
      let covered = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) covered++;
      // Not blank: the avatar covers a good part of the square.
      expect(covered / (info.width * info.height), asset.name).toBeGreaterThan(0.15);
    }
  });

  it('shows each asset differently, even within one category', async () => {
    const pictures = await Promise.all(BUILTIN_ASSETS.map((a) => decode(a.id)));
    for (let i = 0; i < pictures.length; i++)
      for (let j = i + 1; j < pictures.length; j++) {
        const a = pictures[i]!.data;
        const b = pictures[j]!.data;
        let sum = 0;
        for (let k = 0; k < Math.min(a.length, b.length); k++) sum += Math.abs(a[k]! - b[k]!);
        const meanDifference = sum / Math.min(a.length, b.length);
        expect(
          meanDifference,
          `${BUILTIN_ASSETS[i]!.name} vs ${BUILTIN_ASSETS[j]!.name}`,
        ).toBeGreaterThan(1);
      }
  });

  it('has no preview for an asset outside the built-in catalogue', () => {
    expect(hasAssetPreview('00000000-0000-4000-8000-000000000000')).toBe(false);
    expect(assetPreviewBase64('constructor')).toBeNull();
  });
});
