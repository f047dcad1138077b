import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { openDatabase, type Db } from './db/database.js';
import { readCaches } from './db/read-cache.js';
import {
  avatarWorkersFromEnv,
  lifetimesFromEnv,
  processingWorkersFromEnv,
  type Lifetimes,
} from './config.js';
import { workerPool } from './workers/worker-pool.js';
import type { AnalyseRequest, AnalyseResult } from './processing/worker.js';
import { processingRepo } from './processing/processing-repo.js';
import { processingPipeline } from './processing/pipeline.js';
import { createLogger, type Logger } from './log.js';
import { projectRepo, type Project } from './projects/project-repo.js';
import { userRepo } from './users/user-repo.js';
import { avatarRepo } from './avatars/avatar-repo.js';
import { sessionRepo } from './sessions/session-repo.js';
import { urlSigner } from './security/signed-urls.js';
import { exportRepo } from './exports/export-repo.js';
import { renderRepo } from './renders/render-repo.js';
import { avatarJobs } from './tasks/task-runner.js';
import type { AvatarJob, AvatarJobResult, AvatarWorkerInfo } from './tasks/task-types.js';
import { fileDeletions } from './storage/file-deletions.js';
import { resolveInDataDir, TMP_DIR } from './storage/data-paths.js';
import { createApp } from './app.js';
import {
  closeSilentSockets,
  listen,
  SERVER_TIMEOUTS,
  serverOptions,
  type ServerTimeouts,
} from './http/listen.js';
import { webhookOutbox } from './events/outbox.js';
import { webhookDispatcher } from './events/dispatcher.js';
import { retryDelaysFromEnv } from './events/retry-schedule.js';
import type { ServiceContext } from './context.js';
import type { FaceTopology } from './processing/photo-types.js';
import type { WebhookTarget } from './projects/webhook-target.js';

export interface ServiceOptions {
  dataDir: string;
  host?: string;
  /**
   * A number listens there (0: any free port). 'stable' reuses the port of
   * the last start, so the links in earlier events keep working; a fresh data
   * directory, or a port now taken, gets a free one, remembered from then on.
   */
  port?: number | 'stable';
  /** Shorter timeouts for tests; the defaults suit any client. */
  serverTimeouts?: Partial<ServerTimeouts>;
  /** When given, replaces the default project's webhook endpoints. */
  webhooks?: WebhookTarget[];
  log?: Logger;
  now?: () => number;
  lifetimes?: Lifetimes;
  retryDelaysMs?: readonly number[];
  /** Photo-analysis worker threads; 0 leaves uploaded avatars in `processing`. */
  processingWorkers?: number;
  /** Worker threads that build, export and render avatars; 0 leaves those tasks pending. */
  avatarWorkers?: number;
}

export interface RunningService {
  baseUrl: string;
  defaultProject: Project;
  context: ServiceContext;
  close(): Promise<void>;
}

/** Links inside webhook events stay valid for 48 h, longer than the whole retry schedule. */
const EVENT_LINK_TTL_MS = 48 * 3600_000;

const readMeta = (db: Db, key: string): string | undefined =>
  db.prepare<[string], { value: string }>('SELECT value FROM service_meta WHERE key = ?').get(key)
    ?.value;

const writeMeta = (db: Db, key: string, value: string): void => {
  db.prepare('INSERT OR REPLACE INTO service_meta (key, value) VALUES (?, ?)').run(key, value);
};

/** A secret that lives as long as the data directory: it signs upload URLs. */
function serviceSecret(db: Db, name: string): Buffer {
  return db
    .transaction(() => {
      const stored = readMeta(db, name);
      if (stored) return Buffer.from(stored, 'base64');
      const value = randomBytes(32);
      writeMeta(db, name, value.toString('base64'));
      return value;
    })
    .immediate();
}

/** The face mesh topology is the same for every avatar; the builder reads it from here. */
function saveFaceTopology(db: Db, topology: FaceTopology): void {
  db.prepare('INSERT OR IGNORE INTO service_meta (key, value) VALUES (?, ?)').run(
    'face_topology',
    JSON.stringify(topology),
  );
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const log = options.log ?? createLogger();
  const now = options.now ?? Date.now;
  const db = openDatabase(options.dataDir);
  const files = fileDeletions(db, options.dataDir, now);
  // Finish deletions a crash interrupted, and drop half-received uploads.
  files.flush();
  rmSync(resolveInDataDir(options.dataDir, TMP_DIR), { recursive: true, force: true });

  const caches = readCaches(db);
  const projects = projectRepo(db, now, caches);
  const defaultProject = projects.ensureDefault();
  if (options.webhooks && options.webhooks.length > 0) {
    projects.update(defaultProject.id, { webhooks: options.webhooks });
  }

  const outbox = webhookOutbox(db, now);
  const dispatcher = webhookDispatcher({
    outbox,
    projects,
    log,
    now,
    retryDelaysMs: options.retryDelaysMs ?? retryDelaysFromEnv(),
  });

  const pipeline = processingPipeline({
    repo: processingRepo(db, outbox, now),
    pool: workerPool<AnalyseRequest, AnalyseResult, FaceTopology>({
      name: 'processing',
      entry: new URL('./processing/worker.ts', import.meta.url),
      size: options.processingWorkers ?? processingWorkersFromEnv(),
      jobTimeoutMs: 60_000,
      log,
      onReady: (topology) => saveFaceTopology(db, topology),
    }),
    dataDir: options.dataDir,
    log,
    onCompleted: () => dispatcher.nudge(),
  });

  const urls = urlSigner(serviceSecret(db, 'upload_url_secret'));
  let baseUrl = '';
  const fileUrl = (kind: 'export' | 'render', id: string, ttlMs: number) =>
    urls.url(
      baseUrl,
      `/files/${kind}s/${id}`,
      kind === 'export' ? 'export-file' : 'render-file',
      [id],
      now() + ttlMs,
    );
  const exportTasks = exportRepo(db, now);
  const renderTasks = renderRepo(db, now);
  const jobs = avatarJobs({
    db,
    dataDir: options.dataDir,
    pool: workerPool<AvatarJob, AvatarJobResult, AvatarWorkerInfo>({
      name: 'avatar',
      entry: new URL('./tasks/task-worker.ts', import.meta.url),
      size: options.avatarWorkers ?? avatarWorkersFromEnv(),
      jobTimeoutMs: 120_000,
      log,
      onReady: ({ headTextureHelper }) =>
        headTextureHelper
          ? log.info('head texture helper ready')
          : log.warn('the head texture helper did not start: builds paint it on one thread'),
    }),
    exports: exportTasks,
    renders: renderTasks,
    outbox,
    log,
    now,
    // Event links must outlive the webhook retry schedule: a receiver that was down still gets a working link.
    exportUrl: (id) => fileUrl('export', id, EVENT_LINK_TTL_MS),
    renderUrl: (id) => fileUrl('render', id, EVENT_LINK_TTL_MS),
    onEvent: () => dispatcher.nudge(),
  });
  const context: ServiceContext = {
    db,
    dataDir: options.dataDir,
    baseUrl: () => baseUrl,
    now,
    lifetimes: options.lifetimes ?? lifetimesFromEnv(),
    log,
    projects,
    users: userRepo(db, files, now),
    avatars: avatarRepo(db, files, now, caches),
    sessions: sessionRepo(db, now),
    urls,
    exportTasks,
    renderTasks,
    jobs,
    fileUrl,
    outbox,
    dispatcher,
    onUploaded: (avatarId) => pipeline.enqueue(avatarId),
  };
  const router = createApp(context);
  const timeouts = { ...SERVER_TIMEOUTS, ...options.serverTimeouts };
  // The router answers every failure itself, and never throws or rejects.
  const server: Server = createServer(serverOptions(timeouts), (req, res) =>
    router.handle(req, res),
  );
  closeSilentSockets(server, timeouts.idleSocketMs);
  const stable = options.port === 'stable';
  const remembered = stable ? Number(readMeta(db, 'listen_port') ?? 0) : 0;
  const address = await listen(
    server,
    options.host ?? '127.0.0.1',
    typeof options.port === 'number' ? options.port : remembered,
    stable,
  );
  if (stable && address.port !== remembered) {
    if (remembered !== 0) {
      log.warn('remembered port is taken; links in earlier events point to the old port', {
        remembered_port: remembered,
        port: address.port,
      });
    }
    writeMeta(db, 'listen_port', String(address.port));
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${address.port}`;
  dispatcher.start();
  pipeline.start();
  jobs.start();
  log.info('service listening', { base_url: baseUrl, data_dir: options.dataDir });

  return {
    baseUrl,
    defaultProject: projects.getDefault() ?? defaultProject,
    context,
    async close() {
      // In-flight requests get a grace period; idle keep-alive sockets go at once.
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      clearTimeout(force);
      await pipeline.stop();
      await jobs.stop();
      await dispatcher.stop();
      db.close();
    },
  };
}
