/**
 * The batch job store, in the studio database beside the people and avatars
 * it creates. A batch is keyed by its input and the API it talks to; a person
 * by their key within the batch. `state` moves one step at a time, each step
 * committed before the next request is sent.
 */
export const BATCH_MIGRATION = `
  CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    input TEXT NOT NULL,
    api_base_url TEXT NOT NULL,
    label TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'cancelled', 'finished')),
    options TEXT NOT NULL,
    run_started_at TEXT,
    finished_this_run INTEGER NOT NULL DEFAULT 0,
    runner_pid INTEGER,
    runner_host TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (input, api_base_url)
  );
  CREATE TABLE batch_people (
    batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
    person TEXT NOT NULL,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    body_type TEXT,
    telephoto INTEGER NOT NULL,
    customization TEXT,
    photos TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT,
    user_id TEXT,
    avatar_id TEXT,
    upload_url TEXT,
    studio_person_id TEXT,
    attempt INTEGER NOT NULL DEFAULT 1,
    outputs TEXT NOT NULL DEFAULT '{}',
    files TEXT NOT NULL DEFAULT '[]',
    timings TEXT NOT NULL DEFAULT '{}',
    updated_at TEXT NOT NULL,
    PRIMARY KEY (batch_id, person)
  );
  CREATE INDEX batch_people_by_studio_person ON batch_people(studio_person_id);
`;
