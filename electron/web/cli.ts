/**
 * `npm run web`: the studio's back end under plain Node, its UI served on
 * loopback, the contract bridged over HTTP and a WebSocket. Stdout carries
 * exactly one JSON line (the ready line); logs go to stderr.
 */
import { randomBytes } from 'node:crypto';
import { createStudioBackend } from '../backend/index.js';
import { createLogger, watchLauncher } from '../../service/index.js';
import { ensureRendererBuild } from './renderer-build.js';
import { parseWebArguments, USAGE } from './web-arguments.js';
import { startWebServer } from './web-server.js';

const log = createLogger();

async function main(): Promise<void> {
  let args;
  try {
    args = parseWebArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const rendererDir = await ensureRendererBuild();
  const backend = await createStudioBackend({
    dataDir: args.dataDir,
    ...(args.libraryDir ? { libraryDir: args.libraryDir } : {}),
    ...(args.kiosk ? { kiosk: args.kiosk } : {}),
  });
  const server = await startWebServer({
    handler: backend,
    rendererDir,
    host: args.host,
    port: args.port,
    key: randomBytes(32).toString('base64url'),
    log,
  });

  let closing = false;
  const shutdown = async (reason: string) => {
    if (closing) return;
    closing = true;
    log.info('web mode stopping', { reason });
    await server.close();
    await backend.close();
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    process.on(signal, () => void shutdown(signal));
  watchLauncher(() => void shutdown('launcher gone'));

  process.stdout.write(JSON.stringify({ event: 'ready', url: server.url }) + '\n');
  log.info('web mode ready', { port: server.port, data_dir: args.dataDir });
}

main().catch((error: unknown) => {
  log.error('web mode failed to start', { error: String(error) });
  process.stderr.write(
    `Avatar Studio web mode could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
