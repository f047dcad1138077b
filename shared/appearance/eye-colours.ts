import type { EyeTexture } from '../api/index.js';

/**
 * The ten eye_texture values as iris colours (sRGB): the outer iris and the
 * ring around the pupil, which is where mixed eyes such as blue_gray_yellow
 * show their second colour.
 */
export const EYE_COLOURS: Readonly<Record<EyeTexture, { iris: string; inner: string }>> = {
  light_green: { iris: '#8dbb78', inner: '#b9b060' },
  amber: { iris: '#c4851f', inner: '#a15f16' },
  blue: { iris: '#3c74bd', inner: '#6d9fd6' },
  blue_gray_yellow: { iris: '#6e8596', inner: '#c9a33e' },
  brown: { iris: '#6a4224', inner: '#4b2c15' },
  dark_brown: { iris: '#3a2314', inner: '#26160c' },
  gray: { iris: '#878d96', inner: '#a1a6ad' },
  gray_green: { iris: '#7a8c72', inner: '#9a985e' },
  green: { iris: '#3e8849', inner: '#7b8a38' },
  light_gray: { iris: '#b6bcc3', inner: '#cfd3d8' },
};
