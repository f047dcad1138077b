/**
 * How a project's session pages are embedded: which origins may frame them
 * (CSP `frame-ancestors`, and the only origins the page talks to) and how an
 * export reaches the host page (`httpURL` link or `dataURL` with the GLB).
 * Read on every request, so `project set` takes effect at once.
 */
import { z } from 'zod';
import type { Db } from '../db/database.js';
import { ExportDelivery } from '../../shared/session/contract.js';

/** An exact origin (scheme, host, optional port, nothing else), or '*' for any. */
export const FrameOrigin = z.union([
  z.literal('*'),
  z
    .string()
    .max(300)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
      } catch {
        return false;
      }
    }, 'an origin such as https://app.example or http://127.0.0.1:5173, without a path'),
]);
export const FrameOrigins = z.array(FrameOrigin).min(1).max(50);

export interface Embedding {
  exportDelivery: ExportDelivery;
  /** ['*'] allows any origin. */
  frameOrigins: string[];
}

export function embeddingRepo(db: Db) {
  const read = db.prepare<[string], { export_delivery: string; frame_origins: string }>(
    'SELECT export_delivery, frame_origins FROM projects WHERE id = ?',
  );
  const write = db.prepare(
    'UPDATE projects SET export_delivery = COALESCE(?, export_delivery), frame_origins = COALESCE(?, frame_origins) WHERE id = ?',
  );
  return {
    get(projectId: string): Embedding {
      const row = read.get(projectId);
      if (!row) throw new Error(`No project ${projectId}`);
      return {
        exportDelivery: ExportDelivery.parse(row.export_delivery),
        frameOrigins: FrameOrigins.parse(JSON.parse(row.frame_origins)),
      };
    },
    set(projectId: string, patch: Partial<Embedding>): void {
      write.run(
        patch.exportDelivery ?? null,
        patch.frameOrigins ? JSON.stringify(FrameOrigins.parse(patch.frameOrigins)) : null,
        projectId,
      );
    },
  };
}

export const anyOrigin = (origins: readonly string[]) => origins.includes('*');

/** The session page's CSP: our own scripts, workers and wasm only; framed by the allowlist. */
export function sessionPageCsp(origins: readonly string[]): string {
  const ancestors = anyOrigin(origins) ? '*' : origins.join(' ');
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "connect-src 'self' blob: data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}
