import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AvatarModel } from '../avatar-model/model.js';
import { clampSize, renderAvatar, renderRgba } from './index.js';
import { createSyntheticAvatar } from './test-support/synthetic-avatar.js';

let avatar: AvatarModel;
beforeAll(async () => {
  avatar = await createSyntheticAvatar();
});

async function decode(data: Uint8Array) {
  return sharp(data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
}

describe('image formats', () => {
  it.each([
    ['jpg', 'image/jpeg', 'jpeg'],
    ['png', 'image/png', 'png'],
    ['webp', 'image/webp', 'webp'],
  ] as const)('encodes %s at the requested size', async (format, mimeType, decodedAs) => {
    const image = await renderAvatar(avatar, {
      scene: 'common/fullbody',
      format,
      width: 320,
      height: 200,
    });
    expect(image).toMatchObject({ mimeType, width: 320, height: 200 });
    const meta = await sharp(image.data).metadata();
    expect(meta).toMatchObject({ format: decodedAs, width: 320, height: 200 });
    expect(meta.hasAlpha).toBe(format !== 'jpg');
  });

  it.each(['png', 'webp'] as const)(
    '%s: transparent background, opaque avatar, partial alpha on its edges',
    async (format) => {
      const image = await renderAvatar(avatar, {
        scene: 'common/fullbody',
        format,
        width: 256,
        height: 256,
      });
      const { data } = await decode(image.data);
      let transparent = 0;
      let opaque = 0;
      let partial = 0;
      for (let i = 3; i < data.length; i += 4) {
        if (data[i] === 0) transparent++;
        else if (data[i] === 255) opaque++;
        else partial++;
      }
      expect(data[3]).toBe(0); // top-left corner
      expect(transparent).toBeGreaterThan(256 * 256 * 0.5);
      expect(opaque).toBeGreaterThan(2000);
      expect(partial).toBeGreaterThan(200);
    },
  );

  it('jpg: lays the avatar over the requested background', async () => {
    const background = [20, 120, 220] as const;
    const image = await renderAvatar(avatar, {
      scene: 'common/fullbody',
      format: 'jpg',
      width: 128,
      height: 128,
      background,
    });
    const { data, info } = await sharp(image.data).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    for (let c = 0; c < 3; c++) expect(Math.abs(data[c]! - background[c]!)).toBeLessThanOrEqual(3);
  });

  it('defaults to 1024 × 1024 and clamps sizes to 64…2048', async () => {
    const image = await renderAvatar(avatar, { scene: 'common/preview', format: 'jpg' });
    expect([image.width, image.height]).toEqual([1024, 1024]);
    expect(await sharp(image.data).metadata()).toMatchObject({ width: 1024, height: 1024 });
    expect([clampSize(1), clampSize(1e6), clampSize(Number.NaN), clampSize(300.4)]).toEqual([
      64, 2048, 1024, 300,
    ]);
    expect(renderRgba(avatar, 'common/preview', 8, 8)).toHaveLength(64 * 64 * 4);
  });
});
