import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BODY_SHAPES } from '../../shared/api/index.js';
import {
  assetPreviewBase64,
  hasAssetPreview,
  previewBase64,
  type PreviewKind,
} from '../../shared/assets/asset-previews.js';
import { BUILTIN_ASSETS } from './builtin-catalogue.js';

const SHOWN: readonly { kind: PreviewKind; id: string; name: string }[] = [
  ...BUILTIN_ASSETS.map((a) => ({ kind: 'asset' as const, id: a.id, name: a.name })),
  ...BODY_SHAPES.map((b) => ({ kind: 'body' as const, id: b, name: b })),
];

const decode = ({ kind, id }: { kind: PreviewKind; id: string }) => {
  const base64 = previewBase64(kind, id);
  if (base64 === null) throw new Error(`no ${kind} preview for ${id}`);
  return sharp(Buffer.from(base64, 'base64')).raw().toBuffer({ resolveWithObject: true });
};

describe('the rendered previews of the built-in assets and the body shapes', () => {
  it('gives each one a square picture with the avatar in it', async () => {
    for (const shown of SHOWN) {
      const { data, info } = await decode(shown);
      expect(info.width, shown.name).toBeGreaterThanOrEqual(128);
      expect(info.height, shown.name).toBe(info.width);
      expect(info.channels, shown.name).toBe(4);
      let covered = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) covered++;
      // Not blank: the avatar covers a good part of the square.
      expect(covered / (info.width * info.height), shown.name).toBeGreaterThan(0.1);
    }
  });

  it('shows each one differently, even within one category', async () => {
    const pictures = await Promise.all(SHOWN.map(decode));
    for (let i = 0; i < pictures.length; i++)
      for (let j = i + 1; j < pictures.length; j++) {
        const a = pictures[i]!.data;
        const b = pictures[j]!.data;
        let sum = 0;
        for (let k = 0; k < Math.min(a.length, b.length); k++) sum += Math.abs(a[k]! - b[k]!);
        const meanDifference = sum / Math.min(a.length, b.length);
        expect(meanDifference, `${SHOWN[i]!.name} vs ${SHOWN[j]!.name}`).toBeGreaterThan(1);
      }
  });

  it('has none for an asset outside the built-in catalogue', () => {
    expect(hasAssetPreview('00000000-0000-4000-8000-000000000000')).toBe(false);
    expect(assetPreviewBase64('constructor')).toBeNull();
    expect(previewBase64('body', 'body_9')).toBeNull();
  });
});
