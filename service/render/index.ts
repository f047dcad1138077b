/**
 * The CPU renderer of the local Avatar API: pictures of an AvatarModel for
 * POST /api/v1/renders/new, without a GPU. See README.md for the pipeline.
 */
import type { AvatarModel } from '../avatar-model/model.js';
import {
  MIME_TYPES,
  encodeImage,
  type ImageFormat,
  type ImageMimeType,
  type RgbColour,
} from './encode.js';
import { renderViews } from './render-views.js';
import { compositeOverBackdrop, paintBackdrop } from './backdrops.js';
import { sceneInfo, sceneSetup } from './scenes.js';

export { SCENES, isSceneName, UnknownSceneError, DEFAULT_SCENE, type SceneInfo } from './scenes.js';
export type { ImageFormat, ImageMimeType, RgbColour } from './encode.js';

export const MIN_SIZE = 64;
export const MAX_SIZE = 2048;
export const DEFAULT_SIZE = 1024;
/** A light neutral grey: reads as "studio", and dark hair still stands out from it. */
export const DEFAULT_BACKGROUND: RgbColour = [236, 237, 240];

export interface RenderOptions {
  scene: string;
  format: ImageFormat;
  /** Pixels, clamped to 64…2048; the scene's default size (1024) when absent. */
  width?: number;
  height?: number;
  /** sRGB bytes behind the avatar in a jpg; png and webp are transparent instead. */
  background?: RgbColour;
}

export interface RenderedImage {
  data: Uint8Array;
  mimeType: ImageMimeType;
  width: number;
  height: number;
}

/** Renders a scene and encodes it. Throws UnknownSceneError for a scene not in SCENES. */
export async function renderAvatar(
  model: AvatarModel,
  options: RenderOptions,
): Promise<RenderedImage> {
  const defaults = sceneInfo(options.scene).default_size;
  const width = clampSize(options.width, defaults?.width);
  const height = clampSize(options.height, defaults?.height);
  const rgba = renderRgba(model, options.scene, width, height);
  const background = options.background ?? DEFAULT_BACKGROUND;
  const data = await encodeImage(rgba, width, height, options.format, background);
  return { data, mimeType: MIME_TYPES[options.format], width, height };
}

/**
 * The scene as straight-alpha RGBA8, row-major from the top: alpha 0 where
 * there is no avatar, 255 where it covers the pixel, in between on edges;
 * opaque everywhere in scenes with a backdrop.
 * Sizes are clamped as in renderAvatar.
 */
export function renderRgba(
  model: AvatarModel,
  scene: string,
  width: number,
  height: number,
): Uint8Array {
  const w = clampSize(width);
  const h = clampSize(height);
  const setup = sceneSetup(model, scene, w, h);
  const rgba = renderViews(setup.model, setup.views, w, h);
  if (setup.backdrop) compositeOverBackdrop(rgba, paintBackdrop(setup.backdrop, w, h));
  return rgba;
}

export function clampSize(requested: number | undefined, fallback = DEFAULT_SIZE): number {
  const size =
    requested === undefined || !Number.isFinite(requested) ? fallback : Math.round(requested);
  return Math.min(MAX_SIZE, Math.max(MIN_SIZE, size));
}
