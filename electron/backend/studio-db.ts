import path from 'node:path';
import { openSqlite, type SqliteDb } from '../../service/index.js';
import { BATCH_MIGRATION } from './batch/batch-migration.js';

export type StudioDb = SqliteDb;

/**
 * The studio's own state: people and their service user ids, avatars and
 * their states, the photos captured, the files saved, and a durable job
 * queue (exports and renders now, batch creation later). WAL with
 * synchronous=FULL: a committed row survives kill -9 and power loss.
 */
const MIGRATIONS: string[] = [
  `CREATE TABLE people (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     user_id TEXT NOT NULL,
     api_base_url TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE TABLE avatars (
     id TEXT PRIMARY KEY,
     person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
     status TEXT NOT NULL,
     failure TEXT,
     customization TEXT,
     customization_version INTEGER NOT NULL DEFAULT 0,
     body_type TEXT NOT NULL,
     telephoto INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX avatars_by_person ON avatars(person_id, created_at);
   CREATE TABLE photos (
     avatar_id TEXT NOT NULL REFERENCES avatars(id) ON DELETE CASCADE,
     slot TEXT NOT NULL,
     path TEXT NOT NULL,
     sha256 TEXT NOT NULL,
     bytes INTEGER NOT NULL,
     PRIMARY KEY (avatar_id, slot)
   );
   CREATE TABLE jobs (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('export', 'render')),
     avatar_id TEXT NOT NULL REFERENCES avatars(id) ON DELETE CASCADE,
     service_task_id TEXT,
     scene TEXT,
     format TEXT,
     customization_version INTEGER NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('pending', 'downloading', 'saved', 'failed')),
     url TEXT,
     message TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX jobs_open ON jobs(state) WHERE state IN ('pending', 'downloading');
   CREATE TABLE files (
     id TEXT PRIMARY KEY,
     job_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     avatar_id TEXT NOT NULL REFERENCES avatars(id) ON DELETE CASCADE,
     path TEXT NOT NULL,
     mime_type TEXT NOT NULL,
     bytes INTEGER NOT NULL,
     sha256 TEXT NOT NULL,
     customization_version INTEGER NOT NULL,
     scene TEXT,
     format TEXT,
     saved_at TEXT NOT NULL
   );
   CREATE INDEX files_by_avatar ON files(avatar_id, saved_at);
   CREATE TABLE customizations (
     avatar_id TEXT NOT NULL REFERENCES avatars(id) ON DELETE CASCADE,
     version INTEGER NOT NULL,
     customization TEXT NOT NULL,
     saved_at TEXT NOT NULL,
     PRIMARY KEY (avatar_id, version)
   );
   CREATE TABLE webhook_seen (
     webhook_id TEXT PRIMARY KEY,
     received_at TEXT NOT NULL
   );`,
  // Kiosk mode (electron/backend/kiosk/kiosk-records.ts): visitors, the consent audit log,
  // the durable deletion queue, download links (hashed), counters, the PIN and its lock.
  `CREATE TABLE kiosk_visitors (
     id TEXT PRIMARY KEY,
     person_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     language TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('active', 'finishing', 'deleted')),
     created_at TEXT NOT NULL,
     finished_at TEXT
   );
   CREATE TABLE kiosk_consents (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at TEXT NOT NULL,
     consent_version INTEGER NOT NULL,
     visitor_id TEXT NOT NULL,
     language TEXT NOT NULL
   );
   CREATE TABLE kiosk_deletions (
     visitor_id TEXT PRIMARY KEY REFERENCES kiosk_visitors(id),
     due_at TEXT NOT NULL,
     copy_to TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     last_error TEXT
   );
   CREATE TABLE kiosk_links (
     token_sha256 TEXT PRIMARY KEY,
     visitor_id TEXT NOT NULL REFERENCES kiosk_visitors(id),
     expires_at TEXT NOT NULL,
     revoked INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX kiosk_links_by_visitor ON kiosk_links(visitor_id);
   CREATE TABLE kiosk_counters (
     name TEXT PRIMARY KEY CHECK (name IN ('visitors', 'avatars', 'failures', 'deletions')),
     value INTEGER NOT NULL
   );
   CREATE TABLE kiosk_pin (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     hash TEXT NOT NULL,
     is_default INTEGER NOT NULL,
     failed_tries INTEGER NOT NULL DEFAULT 0,
     locked_until TEXT
   );`,
  BATCH_MIGRATION,
];

export function openStudioDb(dataDir: string): StudioDb {
  return openSqlite(path.join(dataDir, 'studio.sqlite'), { migrations: MIGRATIONS });
}
