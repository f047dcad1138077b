import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { FileDeletions } from '../storage/file-deletions.js';
import type { ReadCaches } from '../db/read-cache.js';
import { avatarDir } from '../storage/data-paths.js';
import {
  StoredCustomization,
  type BodyType,
  type ScanStatus,
  type UploadPhotoField,
} from '../../shared/api/index.js';
import { customizationForBodyType, initialCustomization } from '../customization/defaults.js';

export interface AvatarRecord {
  id: string;
  user_id: string;
  project_id: string;
  status: ScanStatus;
  session_id: string | null;
  upload_nonce: string;
  upload_expires_at: number;
  uploaded_at: number | null;
  body_type: BodyType | null;
  telephoto: number | null;
  failure_reason: string | null;
  customization: string;
  customization_version: number;
  customization_source: 'default' | 'client';
  created_at: number;
}

export interface StoredPhoto {
  slot: UploadPhotoField;
  detectedType: string;
  declaredType: string | null;
  byteSize: number;
  sha256: string;
  /** Relative to the data directory. */
  filePath: string;
}

export function avatarRepo(db: Db, files: FileDeletions, now: () => number, caches?: ReadCaches) {
  const cached = caches?.create<Readonly<AvatarRecord> | undefined>();
  const byId = db.prepare<[string, string], AvatarRecord>(
    'SELECT * FROM avatars WHERE id = ? AND project_id = ?',
  );
  const loadAvatar = (id: string, projectId: string): Readonly<AvatarRecord> | undefined => {
    const row = byId.get(id, projectId);
    return row && Object.freeze(row);
  };
  const byIdUnscoped = db.prepare<[string], AvatarRecord>('SELECT * FROM avatars WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO avatars (id, user_id, project_id, status, upload_nonce, upload_expires_at,
       customization, customization_version, customization_source, created_at, updated_at)
     VALUES (?, ?, ?, 'pending', ?, ?, ?, 1, 'default', ?, ?)`,
  );
  const listAll = db.prepare<[string], { id: string; status: ScanStatus }>(
    'SELECT id, status FROM avatars WHERE user_id = ? ORDER BY created_at, rowid',
  );
  const listReady = db.prepare<[string], { id: string; status: ScanStatus }>(
    `SELECT id, status FROM avatars WHERE user_id = ? AND status = 'ready' ORDER BY created_at, rowid`,
  );
  const remove = db.prepare('DELETE FROM avatars WHERE id = ? AND user_id = ? AND project_id = ?');
  const claimUpload = db.prepare(
    `UPDATE avatars SET status = 'processing', uploaded_at = ?, body_type = ?, telephoto = ?,
       upload_nonce = '', updated_at = ?
     WHERE id = ? AND status = 'pending' AND upload_nonce = ?`,
  );
  const insertPhoto = db.prepare(
    `INSERT INTO photos (avatar_id, slot, detected_type, declared_type, byte_size, sha256, file_path)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const writeCustomization = db.prepare(
    `UPDATE avatars SET customization = ?, customization_version = customization_version + 1,
       customization_source = ?, updated_at = ? WHERE id = ?`,
  );

  const deleteAvatar = db.transaction((projectId: string, userId: string, avatarId: string) => {
    const deleted = remove.run(avatarId, userId, projectId).changes > 0;
    if (deleted) files.queue(avatarDir(avatarId));
    return deleted;
  });

  const recordUpload = db.transaction(
    (
      avatar: AvatarRecord,
      nonce: string,
      form: { bodyType: BodyType; telephoto: boolean },
      photos: StoredPhoto[],
      commitFiles: () => void,
    ): boolean => {
      const t = now();
      const claimed =
        claimUpload.run(t, form.bodyType, form.telephoto ? 1 : 0, t, avatar.id, nonce).changes > 0;
      if (!claimed) return false;
      for (const p of photos) {
        insertPhoto.run(
          avatar.id,
          p.slot,
          p.detectedType,
          p.declaredType,
          p.byteSize,
          p.sha256,
          p.filePath,
        );
      }
      if (avatar.customization_source === 'default') {
        writeCustomization.run(
          JSON.stringify(customizationForBodyType(form.bodyType)),
          'default',
          t,
          avatar.id,
        );
      }
      // Files are moved into place last, so a failed move rolls the claim back.
      commitFiles();
      return true;
    },
  );

  return {
    create(projectId: string, userId: string, uploadTtlMs: number) {
      const id = randomUUID();
      const nonce = randomBytes(16).toString('base64url');
      const t = now();
      const expiresAt = t + uploadTtlMs;
      insert.run(
        id,
        userId,
        projectId,
        nonce,
        expiresAt,
        JSON.stringify(initialCustomization()),
        t,
        t,
      );
      return { id, nonce, expiresAt };
    },
    /** Read on every customization request, so served from the read cache while nothing writes. */
    get(projectId: string, avatarId: string): Readonly<AvatarRecord> | undefined {
      const id = avatarId.toLowerCase();
      return cached
        ? cached.get(`${projectId}/${id}`, loadAvatar, id, projectId)
        : loadAvatar(id, projectId);
    },
    /** For the upload URL, whose signature stands in for the bearer token. */
    getForUpload: (avatarId: string) => byIdUnscoped.get(avatarId),
    list: (userId: string, includeNotReady: boolean) =>
      (includeNotReady ? listAll : listReady).all(userId),
    delete(projectId: string, userId: string, avatarId: string): boolean {
      const deleted = deleteAvatar.immediate(projectId, userId, avatarId.toLowerCase());
      if (deleted) files.flush();
      return deleted;
    },
    recordUpload: (...args: Parameters<typeof recordUpload>) => recordUpload.immediate(...args),
    customization: (avatar: AvatarRecord): StoredCustomization =>
      StoredCustomization.parse(JSON.parse(avatar.customization)),
    writeCustomization(avatarId: string, customization: StoredCustomization): void {
      writeCustomization.run(JSON.stringify(customization), 'client', now(), avatarId);
    },
  };
}

export type AvatarRepo = ReturnType<typeof avatarRepo>;
