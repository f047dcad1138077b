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
  BATCH_MIGRATION,
];

export function openStudioDb(dataDir: string): StudioDb {
  return openSqlite(path.join(dataDir, 'studio.sqlite'), { migrations: MIGRATIONS });
}
