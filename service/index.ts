/** The local service's public entry, for the studio's embedded default. */
export { startService, type RunningService, type ServiceOptions } from './service.js';
export { createLogger, type Logger } from './log.js';
export { verifyWebhook, signedHeaders } from './events/standard-webhooks.js';
export { isAlive, watchLauncher } from './cli/launcher-watch.js';
export { writeFileAtomic } from './storage/atomic-write.js';
export { WebhookTargetArgument, type WebhookTarget } from './projects/webhook-target.js';
export { openSqlite, type SqliteDb } from './db/sqlite.js';
