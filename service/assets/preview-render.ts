/**
 * Renders the built-in catalogue's preview images: each asset worn by one
 * neutral avatar, framed on the part of the body it covers, and each body
 * shape bare and full length, with the service's own CPU rasteriser. Run at build time (`npm run build:asset-previews`);
 * the images ship in `shared/assets/asset-previews.generated.ts`.
 *
 * The neutral avatar is the builder's fixture head shape with plain
 * skin-coloured "photos", so no real face appears in the catalogue.
 */
import sharp from 'sharp';
import {
  BODY_SHAPES,
  type AssetSlot,
  type BodyShape,
  type StoredCustomization,
} from '../../shared/api/index.js';
import { buildAvatar, type BuildInput } from '../avatar-model/builder/build-avatar.js';
import type { AvatarModel } from '../avatar-model/model.js';
import { renderRgba } from '../render/index.js';
import { initialCustomization } from '../customization/defaults.js';
import type { BuiltinAsset } from './builtin-catalogue.js';

export const PREVIEW_SIZE = 192;
const WEBP_QUALITY = 80;

/** The scene each slot is shown in, and the part of the render kept (cropped to a square). */
const FRAMING: Record<AssetSlot, { scene: string; crop: 'all' | 'feet' | 'face' }> = {
  hair_and_headwear: { scene: 'common/preview', crop: 'all' },
  eyewear: { scene: 'common/preview', crop: 'face' },
  clothing: { scene: 'common/transparent_half_body', crop: 'all' },
  footwear: { scene: 'common/transparent_full_body', crop: 'feet' },
};

const BODY_SCENE = 'common/transparent_full_body';

/** A plain photo of one colour: the head keeps the fixture's shape but shows no face texture. */
async function plainPhoto(size: number, colour: string): Promise<Uint8Array> {
  const jpeg = await sharp({
    create: { width: size, height: size, channels: 3, background: colour },
  })
    .jpeg()
    .toBuffer();
  return new Uint8Array(jpeg);
}

export interface NeutralHead {
  analysis: BuildInput['analysis'];
  topology: BuildInput['topology'];
  /** Side of the analysed photos, pixels. */
  photoSize: number;
}

/** The customization that shows one asset on a bare avatar. */
export function wearing(asset: BuiltinAsset): StoredCustomization {
  const c = initialCustomization();
  const coloured = { id: asset.id, color: asset.default_color };
  switch (asset.category) {
    case 'hair_and_headwear':
      c.assets.hair_and_headwear = coloured;
      break;
    case 'eyewear':
      c.assets.eyewear = coloured;
      break;
    case 'clothing':
      c.assets.clothing = { id: asset.id };
      break;
    case 'footwear':
      c.assets.footwear = { id: asset.id };
      break;
  }
  return c;
}

/** Crops square rows of interest out of the render, then encodes the preview. */
async function encodePreview(
  rgba: Uint8Array,
  size: number,
  crop: 'all' | 'feet' | 'face',
): Promise<Uint8Array> {
  const image = sharp(Buffer.from(rgba), { raw: { width: size, height: size, channels: 4 } });
  const box = crop === 'all' ? null : cropBox(rgba, size, crop);
  const cropped = box ? image.extract(box) : image;
  const out = await cropped
    .resize(PREVIEW_SIZE, PREVIEW_SIZE, {
      fit: 'contain',
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .webp({ quality: WEBP_QUALITY, alphaQuality: 90 })
    .toBuffer();
  return new Uint8Array(out);
}

/** The covered pixels' bounds among rows [from, to). */
function coveredBounds(rgba: Uint8Array, size: number, from: number, to: number) {
  let top = size;
  let bottom = -1;
  let left = size;
  let right = -1;
  for (let y = from; y < to; y++)
    for (let x = 0; x < size; x++)
      if (rgba[(y * size + x) * 4 + 3]! > 0) {
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
  return bottom < 0 ? null : { top, bottom, left, right };
}

/**
 * A square around the feet (the lowest sixth of the figure) or the eyes (the
 * upper middle of a head-and-shoulders picture), clamped to the image.
 */
function cropBox(rgba: Uint8Array, size: number, crop: 'feet' | 'face') {
  const figure = coveredBounds(rgba, size, 0, size);
  if (!figure) return null;
  const height = figure.bottom - figure.top + 1;
  const rows =
    crop === 'feet'
      ? [figure.bottom - Math.round(height / 6), figure.bottom + 1]
      : [figure.top + Math.round(height * 0.12), figure.top + Math.round(height * 0.55)];
  const part = coveredBounds(rgba, size, rows[0]!, rows[1]!);
  if (!part) return null;
  const cx = (part.left + part.right) / 2;
  const cy = (part.top + part.bottom) / 2;
  const side = Math.min(
    size,
    Math.round(Math.max(part.right - part.left, part.bottom - part.top) * 1.15) + 4,
  );
  const clamp = (v: number) => Math.max(0, Math.min(size - side, Math.round(v - side / 2)));
  return { left: clamp(cx), top: clamp(cy), width: side, height: side };
}

export interface RenderedPreviews {
  /** By asset id, in catalogue order. */
  assets: Map<string, Uint8Array>;
  /** By body shape, each bare, full length. */
  bodies: Map<BodyShape, Uint8Array>;
}

/** Renders one preview per asset and one per body shape. */
export async function renderPreviews(
  head: NeutralHead,
  catalogue: readonly BuiltinAsset[],
  renderSize = 512,
): Promise<RenderedPreviews> {
  const skin = head.analysis.skin_tone ?? '#c69c82';
  const plain = await plainPhoto(head.photoSize, skin);
  const photos = { frontal: plain, side1: plain, side2: plain };
  const build = (customization: StoredCustomization): Promise<AvatarModel> =>
    buildAvatar({
      analysis: head.analysis,
      topology: head.topology,
      photos,
      customization,
      catalogue,
    });

  const assets = new Map<string, Uint8Array>();
  for (const asset of catalogue) {
    const { scene, crop } = FRAMING[asset.category];
    const rgba = renderRgba(await build(wearing(asset)), scene, renderSize, renderSize);
    assets.set(asset.id, await encodePreview(rgba, renderSize, crop));
  }
  const bodies = new Map<BodyShape, Uint8Array>();
  for (const body of BODY_SHAPES) {
    const model = await build({ ...initialCustomization(), body });
    const rgba = renderRgba(model, BODY_SCENE, renderSize, renderSize);
    bodies.set(body, await encodePreview(rgba, renderSize, 'all'));
  }
  return { assets, bodies };
}
