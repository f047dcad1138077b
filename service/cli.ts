import { openDatabase } from './db/database.js';
import { projectRepo, type Project, type ProjectRepo } from './projects/project-repo.js';
import { parseCommand, UsageError, USAGE, type Command } from './cli/arguments.js';
import { startService } from './service.js';
import { createLogger } from './log.js';
import { watchLauncher } from './cli/launcher-watch.js';
import { shutDown } from './cli/shut-down.js';
import { webhookOutbox } from './events/outbox.js';
import { embeddingRepo } from './sessions/embedding.js';

/** One JSON line per project on stdout: the only thing other tools parse. */
const printProject = (
  p: Project,
  projects: ProjectRepo,
  embedding: ReturnType<typeof embeddingRepo>,
) => {
  const { exportDelivery, frameOrigins } = embedding.get(p.id);
  process.stdout.write(
    JSON.stringify({
      id: p.id,
      name: p.name,
      token: p.token,
      webhook_secret: p.webhook_secret,
      plan: p.plan,
      is_default: p.is_default,
      webhooks: projects
        .webhookEndpoints(p.id)
        .map((e) => ({ url: e.url, events: e.events, enabled: e.enabled })),
      export_delivery: exportDelivery,
      frame_origins: frameOrigins,
    }) + '\n',
  );
};

async function run(command: Command): Promise<void> {
  if (command.command === 'start') {
    const log = createLogger();
    const service = await startService({
      dataDir: command.dataDir,
      host: command.host,
      port: command.port,
      webhooks: command.webhooks,
      log,
    });
    const { id, token, webhook_secret } = service.defaultProject;
    process.stdout.write(
      JSON.stringify({
        event: 'ready',
        base_url: service.baseUrl,
        project: { id, token, webhook_secret },
      }) + '\n',
    );
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info('shutting down', { reason: signal });
      shutDown(
        () => service.close(),
        (code) => process.exit(code),
        log,
      );
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
    watchLauncher(() => stop('launcher exited'));
    return;
  }

  const db = openDatabase(command.dataDir);
  try {
    const projects = projectRepo(db, Date.now);
    const embedding = embeddingRepo(db);
    switch (command.command) {
      case 'project create':
        printProject(
          projects.create({
            name: command.name,
            plan: command.plan,
            webhooks: command.webhooks,
          }),
          projects,
          embedding,
        );
        break;
      case 'project list':
        for (const p of projects.list()) printProject(p, projects, embedding);
        break;
      case 'project set': {
        const id = command.id ?? projects.ensureDefault().id;
        const updated = projects.update(id, {
          ...(command.name !== undefined && { name: command.name }),
          ...(command.plan !== undefined && { plan: command.plan }),
          ...(command.webhooks !== undefined && { webhooks: command.webhooks }),
        });
        if (!updated) throw new UsageError(`No project with id ${id}`);
        embedding.set(id, {
          ...(command.exportDelivery !== undefined && { exportDelivery: command.exportDelivery }),
          ...(command.frameOrigins !== undefined && { frameOrigins: command.frameOrigins }),
        });
        printProject(updated, projects, embedding);
        break;
      }
      case 'webhooks log': {
        const outbox = webhookOutbox(db, Date.now);
        for (const entry of outbox.log(null, {
          limit: command.limit,
          ...(command.id && { id: command.id }),
        })) {
          process.stdout.write(JSON.stringify(entry) + '\n');
        }
        break;
      }
      case 'webhooks replay': {
        const deliveries = webhookOutbox(db, Date.now).replay(null, command.id);
        if (deliveries === undefined)
          throw new UsageError(`No webhook message with id ${command.id}`);
        process.stdout.write(JSON.stringify({ message_id: command.id, deliveries }) + '\n');
        break;
      }
    }
  } finally {
    db.close();
  }
}

try {
  await run(parseCommand(process.argv.slice(2)));
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
}
