import type { Db } from './db/database.js';
import type { Lifetimes } from './config.js';
import type { Logger } from './log.js';
import type { ProjectRepo } from './projects/project-repo.js';
import type { UserRepo } from './users/user-repo.js';
import type { AvatarRepo } from './avatars/avatar-repo.js';
import type { SessionRepo } from './sessions/session-repo.js';
import type { UrlSigner } from './security/signed-urls.js';
import type { WebhookOutbox } from './events/outbox.js';
import type { WebhookDispatcher } from './events/dispatcher.js';
import type { ExportRepo } from './exports/export-repo.js';
import type { RenderRepo } from './renders/render-repo.js';
import type { AvatarJobs } from './tasks/task-runner.js';

/** Everything a route handler may use, built once at start-up by `createService`. */
export interface ServiceContext {
  db: Db;
  dataDir: string;
  /** Known only once the server listens, since `--port 0` picks the port. */
  baseUrl(): string;
  now(): number;
  lifetimes: Lifetimes;
  log: Logger;
  projects: ProjectRepo;
  users: UserRepo;
  avatars: AvatarRepo;
  sessions: SessionRepo;
  urls: UrlSigner;
  outbox: WebhookOutbox;
  dispatcher: WebhookDispatcher;
  exportTasks: ExportRepo;
  renderTasks: RenderRepo;
  jobs: AvatarJobs;
  /** A signed, temporary link to a finished export or render. */
  fileUrl(kind: 'export' | 'render', id: string, ttlMs: number): string;
  /** Called after an upload commits; the processing pipeline subscribes here. */
  onUploaded(avatarId: string): void;
}
