/** Turning camera frames and files into photos for upload, and stills for the analyser. */
import type { PhotoSlot, PhotoUpload } from '../../shared/studio/index.js';
import type { Checks } from './guidance.js';

export const ANALYSIS_WIDTH = 640;
export const ANALYSIS_HEIGHT = 480;

export interface Shot {
  slot: PhotoSlot;
  source: 'camera' | 'file';
  blob: Blob;
  /** Blob URL for the thumbnail; revoked when the shot is dropped. */
  url: string;
  name: string;
  mimeType: string;
  /** Quality checks at the moment it was taken; a missing check was not applicable. */
  checks: Partial<Checks> | null;
  /** A problem found locally (the service has the last word). */
  note: string | null;
  yaw: number | null;
}

/** A camera frame (the live video, or one kept from it) at full resolution, unmirrored, as a JPEG. */
export async function grabJpeg(source: HTMLVideoElement | ImageBitmap): Promise<Blob> {
  const canvas = document.createElement('canvas');
  const video = source instanceof HTMLVideoElement;
  canvas.width = (video ? source.videoWidth : source.width) || ANALYSIS_WIDTH;
  canvas.height = (video ? source.videoHeight : source.height) || ANALYSIS_HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw the camera image.');
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
  return await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('Could not encode the photo.'))),
      'image/jpeg',
      0.92,
    ),
  );
}

/**
 * One camera frame, twice: at full resolution (kept, so that an automatic
 * shot is the very frame that was judged good) and 640 wide for the analyser
 * (640×480 for a 4:3 camera, aspect kept).
 */
export async function grabFrame(
  video: HTMLVideoElement,
): Promise<{ full: ImageBitmap; analysis: ImageBitmap }> {
  const full = await createImageBitmap(video);
  try {
    const analysis = await createImageBitmap(full, {
      resizeWidth: ANALYSIS_WIDTH,
      resizeHeight: Math.max(1, Math.round((ANALYSIS_WIDTH * full.height) / full.width)),
      resizeQuality: 'low',
    });
    return { full, analysis };
  } catch (e) {
    full.close();
    throw e;
  }
}

/** A still photo scaled to fit 640 px for the analyser; null when it cannot be decoded. */
export async function stillForAnalysis(blob: Blob): Promise<ImageBitmap | null> {
  try {
    const full = await createImageBitmap(blob);
    const scale = Math.min(1, ANALYSIS_WIDTH / Math.max(full.width, full.height));
    if (scale === 1) return full;
    const resized = await createImageBitmap(full, {
      resizeWidth: Math.max(1, Math.round(full.width * scale)),
      resizeHeight: Math.max(1, Math.round(full.height * scale)),
      resizeQuality: 'medium',
    });
    full.close();
    return resized;
  } catch {
    return null;
  }
}

export async function toUpload(shot: Shot): Promise<PhotoUpload> {
  return {
    name: shot.name.slice(0, 255),
    mimeType: shot.mimeType.slice(0, 100) || 'application/octet-stream',
    bytes: new Uint8Array(await shot.blob.arrayBuffer()),
  };
}
