import { readFileSync } from 'node:fs';
import { photo, type Answer } from './service.js';

export type PhotoSet = Partial<
  Record<'image-frontal' | 'image-side-1' | 'image-side-2', Uint8Array>
>;

export const personPhotos = (person: string): PhotoSet => ({
  'image-frontal': readFileSync(photo(person, 'frontal.jpg')),
  'image-side-1': readFileSync(photo(person, 'side-1.jpg')),
  'image-side-2': readFileSync(photo(person, 'side-2.jpg')),
});

/** Posts a multipart upload the way a client would, with fetch's own FormData. */
export async function upload(
  uploadUrl: string,
  photos: PhotoSet,
  fields: Record<string, string> = { 'body-type': 'female' },
): Promise<Answer> {
  const form = new FormData();
  for (const [name, bytes] of Object.entries(photos)) {
    form.append(name, new Blob([bytes], { type: 'image/jpeg' }), `${name}.jpg`);
  }
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const res = await fetch(uploadUrl, { method: 'POST', body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: res.status, body, headers: res.headers, text };
}
