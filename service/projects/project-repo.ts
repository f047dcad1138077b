import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { BUILTIN_ASSETS } from '../assets/builtin-catalogue.js';
import type { EventName } from '../../shared/api/index.js';
import type { WebhookTarget } from './webhook-target.js';
import type { ReadCaches } from '../db/read-cache.js';
import { newProjectToken, newWebhookSecret, sameDigest, tokenHash } from './credentials.js';

export type Plan = 'paid' | 'free';

export interface Project {
  id: string;
  name: string;
  token: string;
  webhook_secret: string;
  plan: Plan;
  is_default: boolean;
}

export interface WebhookEndpoint {
  id: number;
  url: string;
  events: EventName[];
  enabled: boolean;
}

interface ProjectRow {
  id: string;
  name: string;
  token: string;
  token_hash: Buffer;
  webhook_secret: string;
  plan: Plan;
  is_default: number;
}

const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  name: row.name,
  token: row.token,
  webhook_secret: row.webhook_secret,
  plan: row.plan,
  is_default: row.is_default === 1,
});

export interface NewProject {
  name: string;
  plan: Plan;
  webhooks: WebhookTarget[];
  isDefault?: boolean;
}

/** Projects, their credentials, webhook endpoints and asset catalogues. */
export function projectRepo(db: Db, now: () => number, caches?: ReadCaches) {
  const tokens = caches?.create<Readonly<Project> | undefined>();
  const byHash = db.prepare<[Buffer], ProjectRow>('SELECT * FROM projects WHERE token_hash = ?');
  const loadByHash = (hash: Buffer): Readonly<Project> | undefined => {
    const row = byHash.get(hash);
    return row && sameDigest(row.token_hash, hash) ? Object.freeze(toProject(row)) : undefined;
  };
  const byId = db.prepare<[string], ProjectRow>('SELECT * FROM projects WHERE id = ?');
  const defaultRow = db.prepare<[], ProjectRow>('SELECT * FROM projects WHERE is_default = 1');
  const insertProject = db.prepare(
    `INSERT INTO projects (id, name, token, token_hash, webhook_secret, plan, is_default, created_at)
     VALUES (@id, @name, @token, @token_hash, @webhook_secret, @plan, @is_default, @created_at)`,
  );
  const insertAsset = db.prepare(
    `INSERT INTO assets (project_id, id, category, name, description, color_format, default_color)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const endpointUrls = db.prepare<[string], { id: number; url: string }>(
    'SELECT id, url FROM webhook_endpoints WHERE project_id = ?',
  );
  const deleteEndpoint = db.prepare('DELETE FROM webhook_endpoints WHERE id = ?');
  const upsertEndpoint = db.prepare(
    `INSERT INTO webhook_endpoints (project_id, url, events, enabled, created_at) VALUES (?, ?, ?, 1, ?)
     ON CONFLICT (project_id, url) DO UPDATE SET events = excluded.events, enabled = 1`,
  );

  /**
   * Endpoints that stay keep their row and their delivery history; naming an
   * endpoint again re-enables it after a 410 disabled it.
   */
  const replaceEndpoints = (projectId: string, targets: WebhookTarget[]) => {
    const wanted = new Map(targets.map((t) => [t.url, t.events]));
    for (const row of endpointUrls.all(projectId)) {
      if (!wanted.has(row.url)) deleteEndpoint.run(row.id);
    }
    for (const [url, events] of wanted) {
      upsertEndpoint.run(projectId, url, JSON.stringify(events), now());
    }
  };

  const create = db.transaction((input: NewProject): Project => {
    const token = newProjectToken();
    const row = {
      id: randomUUID(),
      name: input.name,
      token,
      token_hash: tokenHash(token),
      webhook_secret: newWebhookSecret(),
      plan: input.plan,
      is_default: input.isDefault ? 1 : 0,
      created_at: now(),
    };
    insertProject.run(row);
    for (const a of BUILTIN_ASSETS) {
      insertAsset.run(
        row.id,
        a.id,
        a.category,
        a.name,
        a.description,
        a.color_format,
        a.default_color,
      );
    }
    replaceEndpoints(row.id, input.webhooks);
    return toProject(row as ProjectRow);
  });

  const ensureDefault = db.transaction((): Project => {
    const existing = defaultRow.get();
    if (existing) return toProject(existing);
    return create({ name: 'Default project', plan: 'paid', webhooks: [], isDefault: true });
  });

  return {
    create: (input: NewProject) => create.immediate(input),

    /** The default project, created on first use; concurrent starters agree on one. */
    ensureDefault: () => ensureDefault.immediate(),

    /** The read cache's version (see db/read-cache.ts): lets callers hold a project a moment. */
    cacheVersion: (): string | undefined => caches?.version(),

    /** Runs on every request, so it is served from the read cache while nothing writes. */
    findByToken(token: string): Project | undefined {
      const hash = tokenHash(token);
      return tokens ? tokens.get(hash.toString('hex'), loadByHash, hash) : loadByHash(hash);
    },

    get: (id: string) => {
      const row = byId.get(id);
      return row ? toProject(row) : undefined;
    },

    getDefault: () => {
      const row = defaultRow.get();
      return row ? toProject(row) : undefined;
    },

    list: (): Project[] =>
      db
        .prepare<[], ProjectRow>('SELECT * FROM projects ORDER BY created_at, id')
        .all()
        .map(toProject),

    update: db.transaction(
      (
        id: string,
        change: { name?: string; plan?: Plan; webhooks?: WebhookTarget[] },
      ): Project | undefined => {
        const current = byId.get(id);
        if (!current) return undefined;
        db.prepare('UPDATE projects SET name = ?, plan = ? WHERE id = ?').run(
          change.name ?? current.name,
          change.plan ?? current.plan,
          id,
        );
        if (change.webhooks) replaceEndpoints(id, change.webhooks);
        return toProject(byId.get(id)!);
      },
    ),

    disableEndpoint(endpointId: number): void {
      db.prepare('UPDATE webhook_endpoints SET enabled = 0 WHERE id = ?').run(endpointId);
    },

    webhookEndpoints(projectId: string): WebhookEndpoint[] {
      return db
        .prepare<[string], { id: number; url: string; events: string; enabled: number }>(
          'SELECT id, url, events, enabled FROM webhook_endpoints WHERE project_id = ? ORDER BY id',
        )
        .all(projectId)
        .map((r) => ({
          id: r.id,
          url: r.url,
          events: JSON.parse(r.events) as EventName[],
          enabled: r.enabled === 1,
        }));
    },
  };
}

export type ProjectRepo = ReturnType<typeof projectRepo>;
