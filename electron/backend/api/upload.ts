import { open, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import {
  MAX_PHOTO_BYTES,
  UploadResponse,
  type BodyType,
  type UploadPhotoField,
} from '../../../shared/api/index.js';
import {
  FORMAT_OF_MIME_TYPE,
  sniffPhotoMimeType,
  type ImageMimeType,
} from '../../../shared/media/image-types.js';
import { StudioFailure } from '../studio-failure.js';
import { failureFromResponse } from './failure-from-response.js';
import { postStream } from './post-stream.js';

export type PhotoType = ImageMimeType;

export interface UploadPhoto {
  field: UploadPhotoField;
  path: string;
}

export interface CheckedPhoto extends UploadPhoto {
  type: PhotoType;
  size: number;
}

export async function checkPhoto(photo: UploadPhoto): Promise<CheckedPhoto> {
  const { size } = await stat(photo.path);
  if (size === 0) throw new StudioFailure('bad_input', `The ${photo.field} photo is empty.`);
  if (size > MAX_PHOTO_BYTES)
    throw new StudioFailure('bad_input', `The ${photo.field} photo is larger than 25 MiB.`);
  const handle = await open(photo.path, 'r');
  const head = new Uint8Array(12);
  try {
    await handle.read(head, 0, 12, 0);
  } finally {
    await handle.close();
  }
  const type = sniffPhotoMimeType(head);
  if (!type)
    throw new StudioFailure(
      'bad_input',
      `The ${photo.field} photo is not a JPEG, PNG or WebP image.`,
    );
  return { ...photo, type, size };
}

const CHUNK_BYTES = 64 * 1024;
const POOL_SIZE = 4;

/**
 * Reads a file through a small ring of reused buffers instead of a fresh
 * buffer per chunk, so a 60 MB upload leaves no 60 MB of garbage behind.
 * Reuse is safe because `postStream` writes with backpressure: a chunk that
 * the socket did not take at once makes it wait for 'drain', so at most one
 * chunk is in flight when the ring comes round again (the memory test checks
 * the stored bytes by hash).
 */
async function* readPooled(file: string): AsyncGenerator<Uint8Array> {
  const pool = Array.from({ length: POOL_SIZE }, () => Buffer.allocUnsafe(CHUNK_BYTES));
  const handle = await open(file, 'r');
  try {
    for (let i = 0, position = 0; ; i = (i + 1) % POOL_SIZE) {
      const { bytesRead } = await handle.read(pool[i]!, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield pool[i]!.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Uploads three photos to a signed upload URL (no bearer token: the URL is
 * the credential). The multipart body is generated while it is sent, each
 * photo streamed from disk, so memory stays flat whatever the photo size;
 * the known length lets `onProgress` report a real fraction.
 */
export async function uploadPhotos(options: {
  uploadUrl: string;
  photos: UploadPhoto[];
  bodyType: BodyType;
  telephoto: boolean;
  onProgress?: (sent: number, total: number) => void;
  timeoutMs?: number;
}): Promise<UploadResponse> {
  const checked = await Promise.all(options.photos.map(checkPhoto));
  const boundary = `----avatar-studio-${randomBytes(12).toString('hex')}`;
  const enc = new TextEncoder();
  const textPart = (name: string, value: string) =>
    enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
  const fileHead = (p: CheckedPhoto) =>
    enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"; filename="${p.field}.${FORMAT_OF_MIME_TYPE[p.type]}"\r\n` +
        `Content-Type: ${p.type}\r\n\r\n`,
    );
  const crlf = enc.encode('\r\n');
  const tail = enc.encode(`--${boundary}--\r\n`);
  const texts = [
    textPart('body-type', options.bodyType),
    textPart('telephoto', String(options.telephoto)),
  ];
  const total =
    texts.reduce((n, t) => n + t.length, 0) +
    checked.reduce((n, p) => n + fileHead(p).length + p.size + crlf.length, 0) +
    tail.length;

  let sent = 0;
  const count = (chunk: Uint8Array) => {
    sent += chunk.length;
    options.onProgress?.(sent, total);
    return chunk;
  };
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const t of texts) yield count(t);
    for (const p of checked) {
      yield count(fileHead(p));
      for await (const chunk of readPooled(p.path)) yield count(chunk);
      yield count(crlf);
    }
    yield count(tail);
  }

  let res: { status: number; text: string };
  try {
    res = await postStream({
      url: options.uploadUrl,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(total),
      },
      body: body(),
      idleTimeoutMs: options.timeoutMs ?? 120_000,
    });
  } catch (error) {
    throw new StudioFailure(
      'network',
      `The upload failed (${(error as { code?: string }).code ?? String(error)}).`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(res.text);
  } catch {
    json = null;
  }
  if (res.status !== 200) throw failureFromResponse(res.status, json);
  const parsed = UploadResponse.safeParse(json);
  if (!parsed.success) throw new StudioFailure('internal', 'The upload answer is out of spec.');
  return parsed.data;
}
