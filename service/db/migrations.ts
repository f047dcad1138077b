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
  `
  ALTER TABLE avatars ADD COLUMN failure_code TEXT;
  ALTER TABLE avatars ADD COLUMN processed_at INTEGER;
  ALTER TABLE avatars ADD COLUMN processing_attempts INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX avatars_by_status ON avatars (status);

  -- What processing learned from the photos, for the avatar builder.
  CREATE TABLE avatar_analysis (
    avatar_id TEXT PRIMARY KEY REFERENCES avatars (id) ON DELETE CASCADE,
    data TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );

  -- The transactional outbox. A message is one event (its id is the
  -- webhook-id header); a delivery is that message on its way to one URL.
  CREATE TABLE webhook_messages (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX webhook_messages_by_project ON webhook_messages (project_id, created_at);

  CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
    endpoint_id INTEGER REFERENCES webhook_endpoints (id) ON DELETE SET NULL,
    url TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'endpoint_disabled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_status_code INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);

  CREATE TABLE webhook_attempts (
    id INTEGER PRIMARY KEY,
    delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempted_at INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL
  );
  CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id);
  `,
  `
  -- Export and render tasks. Each keeps the customization it was asked
  -- for, so a PUT arriving while it waits never changes what it builds.
  CREATE TABLE exports (
    id TEXT PRIMARY KEY,
    avatar_id TEXT NOT NULL REFERENCES avatars (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL,
    customization_version INTEGER NOT NULL,
    customization TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'ready', 'failed')),
    file_path TEXT,
    byte_size INTEGER,
    sha256 TEXT,
    failure_reason TEXT,
    created_at INTEGER NOT NULL,
    completed_at INTEGER,
    UNIQUE (avatar_id, customization_version)
  );
  CREATE INDEX exports_by_status ON exports (status);

  CREATE TABLE renders (
    id TEXT PRIMARY KEY,
    avatar_id TEXT NOT NULL REFERENCES avatars (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL,
    customization_version INTEGER NOT NULL,
    customization TEXT NOT NULL,
    scene TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('jpg', 'png', 'webp')),
    status TEXT NOT NULL CHECK (status IN ('pending', 'ready', 'failed')),
    file_path TEXT,
    byte_size INTEGER,
    failure_reason TEXT,
    created_at INTEGER NOT NULL,
    completed_at INTEGER
  );
  CREATE INDEX renders_by_status ON renders (status);
  `,
  `
  -- Session pages (docs/session-pages.md): how exports reach the host page,
  -- and which origins may frame the page ('*' = any, the default). Origins are
  -- a JSON array of exact origins such as "https://app.example".
  ALTER TABLE projects ADD COLUMN export_delivery TEXT NOT NULL DEFAULT 'httpURL'
    CHECK (export_delivery IN ('httpURL', 'dataURL'));
  ALTER TABLE projects ADD COLUMN frame_origins TEXT NOT NULL DEFAULT '["*"]';
  `,
];
