/**
 * How one vertex of a triangle travels from the geometry stage to the
 * rasteriser and the shader: a flat run of numbers, so a triangle is one
 * reusable Float64Array and nothing is allocated per triangle or per pixel.
 */
export const SCREEN_X = 0;
export const SCREEN_Y = 1;
/** 1/w: the depth kept in the z-buffer, and the weight for perspective-correct interpolation. */
export const INV_W = 2;
/** View-space position, for the direction to the viewer and for near-plane clipping. */
export const POS_X = 3;
export const POS_Y = 4;
export const POS_Z = 5;
/** View-space normal (not renormalised until the pixel). */
export const NORMAL_X = 6;
export const NORMAL_Y = 7;
export const NORMAL_Z = 8;
export const TEX_U = 9;
export const TEX_V = 10;

export const VERTEX_STRIDE = 11;
