/** Sends the three photos to the signed upload URL, with progress. */
import type { BodyType, UploadPhotoField } from '../../shared/api/index.js';
import type { PhotoSlot } from '../../shared/studio/index.js';
import type { Shot } from '../capture/photos.js';

const FIELD: Record<PhotoSlot, UploadPhotoField> = {
  frontal: 'image-frontal',
  side1: 'image-side-1',
  side2: 'image-side-2',
};

export function uploadPhotos(
  url: string,
  shots: Record<PhotoSlot, Shot>,
  bodyType: BodyType,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const form = new FormData();
  for (const slot of Object.keys(FIELD) as PhotoSlot[])
    form.append(FIELD[slot], shots[slot].blob, shots[slot].name);
  form.append('body-type', bodyType);
  // XMLHttpRequest, because fetch reports no upload progress.
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let detail = `The upload was refused (${xhr.status}).`;
      try {
        const body: unknown = JSON.parse(xhr.responseText);
        if (body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string')
          detail = body.detail;
      } catch {
        // keep the status line
      }
      reject(new Error(detail));
    };
    xhr.onerror = () => reject(new Error('The upload failed: the service could not be reached.'));
    xhr.send(form);
  });
}

/** base64 of bytes, in chunks (one huge String.fromCharCode call overflows the stack). */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
