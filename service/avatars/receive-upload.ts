import busboy from 'busboy';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import {
  UPLOAD_PHOTO_FIELDS,
  type UploadPhotoField,
  type ValidationErrorItem,
} from '../../shared/api/index.js';
import {
  sniffImageType,
  SNIFF_BYTES,
  type SniffedImageType,
} from '../../shared/media/image-types.js';
import { tooLarge } from '../http/read-body.js';

export interface ReceivedPhoto {
  field: UploadPhotoField;
  tempPath: string;
  detectedType: SniffedImageType;
  declaredType: string | null;
  byteSize: number;
  sha256: string;
}

export interface ReceivedForm {
  photos: Map<UploadPhotoField, ReceivedPhoto>;
  fields: Record<string, string>;
  /** Problems only the multipart layer can see: oversize files, text where a file belongs. */
  errors: ValidationErrorItem[];
  discard(): void;
}

const isPhotoField = (name: string): name is UploadPhotoField =>
  (UPLOAD_PHOTO_FIELDS as readonly string[]).includes(name);

/**
 * Streams a multipart upload to temp files in `tempDir`, hashing and sniffing
 * each photo on the way, so memory stays flat whatever the photo size. The
 * caller validates the result and moves the files into place, or discards them.
 */
export async function receiveUpload(
  req: IncomingMessage,
  tempDir: string,
  limits: { photoBytes: number; requestBytes: number },
): Promise<ReceivedForm> {
  const photos = new Map<UploadPhotoField, ReceivedPhoto>();
  const fields: Record<string, string> = {};
  const errors: ValidationErrorItem[] = [];
  const tempPaths: string[] = [];
  const discard = () => {
    for (const p of tempPaths) rmSync(p, { force: true });
  };
  const form: ReceivedForm = { photos, fields, errors, discard };

  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limits.requestBytes) throw tooLarge(limits.requestBytes);
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
    // Not a form at all: every field is then missing, as FastAPI reports it.
    req.resume();
    return form;
  }

  mkdirSync(tempDir, { recursive: true });
  const pendingFiles: Promise<void>[] = [];

  try {
    await new Promise<void>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: req.headers,
          limits: {
            fileSize: limits.photoBytes,
            files: 10,
            fields: 20,
            fieldSize: 4096,
            parts: 40,
          },
        });
      } catch {
        reject(new MalformedForm());
        return;
      }
      let received = 0;
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limits.requestBytes) {
          const error = tooLarge(limits.requestBytes);
          req.unpipe(parser);
          // Ends the photo being written, so nothing waits on a stream that will never finish.
          parser.destroy(error);
          reject(error);
        }
      });
      parser.on('file', (name, stream, info) => {
        if (!isPhotoField(name) || photos.has(name)) {
          stream.resume();
          return;
        }
        const tempPath = path.join(tempDir, `upload-${randomBytes(12).toString('hex')}`);
        tempPaths.push(tempPath);
        const photo: ReceivedPhoto = {
          field: name,
          tempPath,
          detectedType: 'unknown',
          declaredType: info.mimeType ? info.mimeType.slice(0, 100) : null,
          byteSize: 0,
          sha256: '',
        };
        photos.set(name, photo);
        pendingFiles.push(
          writePhoto(stream, photo).then((truncated) => {
            if (truncated) {
              errors.push({
                type: 'file_too_large',
                loc: ['body', name],
                msg: `File should be at most ${limits.photoBytes} bytes`,
                input: null,
                ctx: { max_bytes: limits.photoBytes },
              });
            }
          }),
        );
      });
      parser.on('field', (name, value) => {
        if (isPhotoField(name)) {
          if (!photos.has(name)) {
            errors.push({
              type: 'value_error',
              loc: ['body', name],
              msg: 'Value error, Expected UploadFile, received a text field',
              input: value.slice(0, 100),
            });
          }
          return;
        }
        if (!(name in fields)) fields[name] = value;
      });
      parser.on('error', () => reject(new MalformedForm()));
      parser.on('close', () => resolve());
      req.on('error', reject);
      req.pipe(parser);
    });
    await Promise.all(pendingFiles);
  } catch (error) {
    await Promise.allSettled(pendingFiles);
    discard();
    req.resume();
    throw error;
  }
  return form;
}

export class MalformedForm extends Error {
  constructor() {
    super('The multipart body could not be parsed');
  }
}

/** Returns true when the file was cut off at the size limit. */
async function writePhoto(
  stream: NodeJS.ReadableStream & { truncated?: boolean },
  photo: ReceivedPhoto,
) {
  // The form can break while the file is still being opened, before anything reads the stream.
  let broken: unknown;
  stream.on('error', (error) => (broken = error));
  const file = await open(photo.tempPath, 'wx', 0o600);
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES)]);
      hash.update(chunk);
      photo.byteSize += chunk.length;
      await file.write(chunk);
    }
    if (broken) throw broken;
    await file.sync();
  } finally {
    await file.close();
  }
  photo.detectedType = sniffImageType(head);
  photo.sha256 = hash.digest('hex');
  return stream.truncated === true;
}
