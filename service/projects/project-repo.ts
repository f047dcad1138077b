import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { BUILTIN_ASSETS } from '../assets/builtin-catalogue.js';
import { EVENT_NAMES, type EventName } from '../../shared/api/index.js';
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
  webhookUrls: string[];
  isDefault?: boolean;
}

/** Projects, their credentials, webhook endpoints and asset catalogues. */
export function projectRepo(db: Db, now: () => number) {
  const byHash = db.prepare<[Buffer], ProjectRow>('SELECT * FROM projects WHERE token_hash = ?');
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
  const deleteEndpoints = db.prepare('DELETE FROM webhook_endpoints WHERE project_id = ?');
  const insertEndpoint = db.prepare(
    'INSERT INTO webhook_endpoints (project_id, url, events, enabled, created_at) VALUES (?, ?, ?, 1, ?)',
  );

  const replaceEndpoints = (projectId: string, urls: string[]) => {
    deleteEndpoints.run(projectId);
    for (const url of new Set(urls))
      insertEndpoint.run(projectId, url, JSON.stringify(EVENT_NAMES), now());
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
    replaceEndpoints(row.id, input.webhookUrls);
    return toProject(row as ProjectRow);
  });

  const ensureDefault = db.transaction((): Project => {
    const existing = defaultRow.get();
    if (existing) return toProject(existing);
    return create({ name: 'Default project', plan: 'paid', webhookUrls: [], isDefault: true });
  });

  return {
    create: (input: NewProject) => create.immediate(input),

    /** The default project, created on first use; concurrent starters agree on one. */
    ensureDefault: () => ensureDefault.immediate(),

    findByToken(token: string): Project | undefined {
      const hash = tokenHash(token);
      const row = byHash.get(hash);
      return row && sameDigest(row.token_hash, hash) ? toProject(row) : undefined;
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
        change: { name?: string; plan?: Plan; webhookUrls?: string[] },
      ): Project | undefined => {
        const current = byId.get(id);
        if (!current) return undefined;
        db.prepare('UPDATE projects SET name = ?, plan = ? WHERE id = ?').run(
          change.name ?? current.name,
          change.plan ?? current.plan,
          id,
        );
        if (change.webhookUrls) replaceEndpoints(id, change.webhookUrls);
        return toProject(byId.get(id)!);
      },
    ),

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
