/** What analysing one photo yields; plain data, so it crosses worker threads as is. */
import type { SniffedImageType } from '../../shared/media/image-types.js';
import type { HairObservation } from './hair-analysis.js';
import type { Vec3 } from '../../shared/geometry/vec3.js';

export type { Vec3 };

export type PhotoSlot = 'frontal' | 'side-1' | 'side-2';
export interface FaceAnalysis {
  /** Face-mesh confidence, 0..1. */
  score: number;
  /** Square crop box human used for the mesh, [x, y, w, h] in image pixels, clamped to the image. */
  box: [number, number, number, number];
  /**
   * Head rotation in degrees, sign convention as returned by human:
   * yaw > 0 when the nose points towards the image's left edge (in an unmirrored photo the
   * person turned towards their own right), yaw < 0 when it points to the image's right edge.
   */
  yaw: number;
  pitch: number;
  roll: number;
  /** Distance from forehead top (mesh 10) to chin (mesh 152), in image pixels. */
  faceHeight: number;
  /** Mean luma of the sampled skin pixels (exposure of the face itself), 0..255. */
  faceLuminance: number;
  /** Sharpness of the face area alone (catches a moving head in front of a sharp background). */
  sharpness: number;
  /** 468 points, x/y in image pixels; z is depth on the same pixel scale (smaller = nearer the camera). */
  mesh: Vec3[];
  /** 468 points as human returns them: x/y normalised to 0..1, z normalised by the mesh model input size. */
  meshRaw: Vec3[];
  /** Median colour of cheek and forehead skin, '#rrggbb'. */
  skinColor: string | null;
  /** Median colour just above the forehead, '#rrggbb'; null when that area lies outside the image. */
  hairColor: string | null;
  /** What this photo shows of the hair (absent in analyses stored before it was measured). */
  hair?: HairObservation | null;
}

export interface PhotoAnalysis {
  type: SniffedImageType;
  /** Size after EXIF orientation; 0 when the image could not be decoded. */
  width: number;
  height: number;
  decodeError: string | null;
  /** Mean luma (Rec. 709 weights on sRGB values) over the whole image, 0..255. */
  luminance: number;
  /** Contrast-normalised variance of the Laplacian at 512 px, see `toneStats`. */
  sharpness: number;
  faceCount: number;
  faces: FaceAnalysis[];
  timings: { decodeMs: number; detectMs: number; totalMs: number };
}

export type CheckResult = { ok: true } | { ok: false; code: string; reason: string };

export interface FaceTopology {
  /** 880 triangles as a flat list of 2640 mesh indices. */
  triangles: number[];
  /** 468 canonical texture coordinates, 0..1. */
  uvs: [number, number][];
}

export interface PhotoAnalyzer {
  analyze(buf: Uint8Array): Promise<PhotoAnalysis>;
  faceTopology(): FaceTopology;
  dispose(): void;
}
