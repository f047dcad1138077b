import { parseArgs } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { WebhookTargetArgument } from '../projects/webhook-target.js';
import { FrameOrigin } from '../sessions/embedding.js';
import { ExportDelivery } from '../../shared/session/contract.js';

const Port = z.coerce.number().int().min(0).max(65535);
const Plan = z.enum(['paid', 'free']);
const Name = z.string().min(1).max(200);
const DataDir = z.string().min(1);

export const defaultDataDir = (): string =>
  process.env.AVATAR_SERVICE_DATA_DIR ?? path.join(os.homedir(), '.avatar-studio', 'service');

export const Command = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('start'),
    dataDir: DataDir,
    host: z.string().min(1),
    port: Port,
    webhooks: z.array(WebhookTargetArgument),
  }),
  z.object({
    command: z.literal('project create'),
    dataDir: DataDir,
    name: Name,
    plan: Plan,
    webhooks: z.array(WebhookTargetArgument),
  }),
  z.object({ command: z.literal('project list'), dataDir: DataDir }),
  z.object({
    command: z.literal('project set'),
    dataDir: DataDir,
    id: z.string().min(1).optional(),
    name: Name.optional(),
    plan: Plan.optional(),
    webhooks: z.array(WebhookTargetArgument).optional(),
    exportDelivery: ExportDelivery.optional(),
    frameOrigins: z.array(FrameOrigin).min(1).max(50).optional(),
  }),
  z.object({
    command: z.literal('webhooks log'),
    dataDir: DataDir,
    id: z.string().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(10_000),
  }),
  z.object({ command: z.literal('webhooks replay'), dataDir: DataDir, id: z.string().min(1) }),
]);
export type Command = z.infer<typeof Command>;

export const USAGE = `Usage:
  npm run service -- start [--data-dir DIR] [--host 127.0.0.1] [--port N] [--webhook-url URL]...
  npm run service -- project create --data-dir DIR --name NAME [--webhook-url URL]... [--plan paid|free]
  npm run service -- project list --data-dir DIR
  npm run service -- project set --data-dir DIR [--id PROJECT_ID] [--name NAME] [--plan paid|free]
                                 [--webhook-url URL]... [--no-webhooks]
                                 [--export-delivery httpURL|dataURL]
                                 [--frame-origin ORIGIN]... [--any-frame-origin]
  npm run service -- webhooks log --data-dir DIR [--id MESSAGE_ID] [--limit N]
  npm run service -- webhooks replay --data-dir DIR --id MESSAGE_ID
Without --id, project set changes the default project. --webhook-url replaces the project's
webhook endpoints; --no-webhooks removes them all. A webhook URL may end in
#events=avatar.ready,export.ready,render.ready to receive only those events (default: all).
--export-delivery says how session pages hand an export to the host page: a link (httpURL,
the default) or the GLB itself as a base64 data: URL (dataURL). --frame-origin replaces the
origins allowed to embed session pages (exact origins such as https://app.example);
--any-frame-origin allows any origin again (the default).
webhooks log prints one JSON line per event: its deliveries, attempts, status codes and next
retry. webhooks replay sends an event again under the same webhook-id; a running service
picks it up within a second.`;

export class UsageError extends Error {}

/** Parses the command line strictly: unknown flags and bad values are errors, never ignored. */
export function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'data-dir': { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        'webhook-url': { type: 'string', multiple: true },
        'no-webhooks': { type: 'boolean' },
        'export-delivery': { type: 'string' },
        'frame-origin': { type: 'string', multiple: true },
        'any-frame-origin': { type: 'boolean' },
        name: { type: 'string' },
        plan: { type: 'string' },
        id: { type: 'string' },
        limit: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const verb = positionals.join(' ');
  const requireDataDir = () => values['data-dir'];
  let candidate: unknown;
  switch (verb) {
    case 'start':
      candidate = {
        command: verb,
        dataDir: values['data-dir'] ?? defaultDataDir(),
        host: values.host ?? '127.0.0.1',
        port: values.port ?? '8400',
        webhooks: values['webhook-url'] ?? [],
      };
      break;
    case 'project create':
      candidate = {
        command: verb,
        dataDir: requireDataDir(),
        name: values.name,
        plan: values.plan ?? 'paid',
        webhooks: values['webhook-url'] ?? [],
      };
      break;
    case 'project list':
      candidate = { command: verb, dataDir: requireDataDir() };
      break;
    case 'project set':
      candidate = {
        command: verb,
        dataDir: requireDataDir(),
        id: values.id,
        name: values.name,
        plan: values.plan,
        webhooks: values['no-webhooks'] ? [] : values['webhook-url'],
        exportDelivery: values['export-delivery'],
        frameOrigins: values['any-frame-origin'] ? ['*'] : values['frame-origin'],
      };
      break;
    case 'webhooks log':
      candidate = {
        command: verb,
        dataDir: requireDataDir(),
        id: values.id,
        limit: values.limit ?? '50',
      };
      break;
    case 'webhooks replay':
      candidate = { command: verb, dataDir: requireDataDir(), id: values.id };
      break;
    default:
      throw new UsageError(verb ? `Unknown command "${verb}"` : 'No command given');
  }
  const result = Command.safeParse(candidate);
  if (!result.success) {
    const problems = result.error.issues.map((i) =>
      `--${String(i.path[0] ?? '').replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}: ${i.message}`
        .replace(/^--webhooks/, '--webhook-url')
        .replace(/^--frame-origins/, '--frame-origin'),
    );
    throw new UsageError(problems.join('\n'));
  }
  return result.data;
}
