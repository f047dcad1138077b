/**
 * Schema migrations, applied in order inside one transaction each. The
 * database's `user_version` records how many have run. Never edit a shipped
 * migration: add a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE service_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token TEXT NOT NULL,
    token_hash BLOB NOT NULL UNIQUE,
    webhook_secret TEXT NOT NULL,
    plan TEXT NOT NULL CHECK (plan IN ('paid', 'free')),
    is_default INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX projects_one_default ON projects (is_default) WHERE is_default = 1;

  CREATE TABLE webhook_endpoints (
    id INTEGER PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    UNIQUE (project_id, url)
  );

  CREATE TABLE assets (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    category TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    color_format TEXT,
    default_color TEXT,
    PRIMARY KEY (project_id, id)
  );

  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX users_by_project ON users (project_id);

  CREATE TABLE avatars (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'ready', 'failed')),
    session_id TEXT,
    upload_nonce TEXT NOT NULL,
    upload_expires_at INTEGER NOT NULL,
    uploaded_at INTEGER,
    body_type TEXT,
    telephoto INTEGER,
    failure_reason TEXT,
    customization TEXT NOT NULL,
    customization_version INTEGER NOT NULL,
    customization_source TEXT NOT NULL CHECK (customization_source IN ('default', 'client')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX avatars_by_user ON avatars (user_id, created_at);

  CREATE TABLE photos (
    avatar_id TEXT NOT NULL REFERENCES avatars (id) ON DELETE CASCADE,
    slot TEXT NOT NULL,
    detected_type TEXT NOT NULL,
    declared_type TEXT,
    byte_size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    file_path TEXT NOT NULL,
    PRIMARY KEY (avatar_id, slot)
  );

  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL,
    type TEXT NOT NULL,
    avatar_id TEXT REFERENCES avatars (id) ON DELETE CASCADE,
    key_hash BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );

  -- Files to remove after their rows are gone. Filled in the same transaction
  -- as the delete, emptied after the files are removed, replayed at start-up,
  -- so a crash between the two never leaves photos behind.
  CREATE TABLE file_deletions (
    path TEXT PRIMARY KEY,
    requested_at INTEGER NOT NULL
  );
  `,
];
