import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { SessionConfig } from '../../shared/api/index.js';
import { sameDigest, tokenHash } from '../projects/credentials.js';

export interface SessionRecord {
  id: string;
  user_id: string;
  project_id: string;
  type: SessionConfig['type'];
  avatar_id: string | null;
  created_at: number;
  expires_at: number;
}

/**
 * Sessions are short-lived links. The link carries a random key; only its
 * hash is stored, so the database alone cannot open a session.
 */
export function sessionRepo(db: Db, now: () => number) {
  const insert = db.prepare(
    `INSERT INTO sessions (id, user_id, project_id, type, avatar_id, key_hash, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string], SessionRecord & { key_hash: Buffer }>(
    'SELECT * FROM sessions WHERE id = ?',
  );

  return {
    create(projectId: string, userId: string, config: SessionConfig, ttlMs: number) {
      const id = randomUUID();
      const key = randomBytes(24).toString('base64url');
      const t = now();
      const avatarId = config.type === 'edit_existing' ? config.avatar_id.toLowerCase() : null;
      insert.run(id, userId, projectId, config.type, avatarId, tokenHash(key), t, t + ttlMs);
      return { id, key };
    },
    /** The session a link names, if its key is right; expiry is the caller's to judge. */
    open(id: string, key: string): SessionRecord | undefined {
      const row = byId.get(id);
      if (!row || !sameDigest(row.key_hash, tokenHash(key))) return undefined;
      return row;
    },
    /**
     * The session by id alone, for what a host page may load without the key (asset
     * previews): never for anything that reads or changes the user's data.
     */
    byIdOnly(id: string): SessionRecord | undefined {
      const row = byId.get(id);
      if (!row) return undefined;
      // The key's hash stays here: nothing that opens a session without the key may see it.
      return {
        id: row.id,
        user_id: row.user_id,
        project_id: row.project_id,
        type: row.type,
        avatar_id: row.avatar_id,
        created_at: row.created_at,
        expires_at: row.expires_at,
      };
    },
  };
}

export type SessionRepo = ReturnType<typeof sessionRepo>;
