import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  KIOSK_OPTIONS,
  KioskLaunchArguments,
  kioskLaunchOf,
} from '../backend/kiosk/kiosk-launch.js';

export const USAGE = `Usage:
  npm run web -- [--port N] [--host 127.0.0.1|localhost|::1] [--data-dir DIR] [--library DIR]
                 [--kiosk [--kiosk-idle-seconds N]]
Runs the studio's back end under Node and serves its UI on loopback. Prints one JSON line,
{"event":"ready","url":"http://127.0.0.1:PORT/?key=…"}; open that URL (the key changes at every launch).
--port 0 (the default) picks a free port. The data directory defaults to ~/.avatar-studio/studio
(or AVATAR_STUDIO_DATA_DIR); the library to <data-dir>/library.
--kiosk runs the unattended selfie booth (docs/kiosk.md); --kiosk-idle-seconds (3-600) overrides
its idle timeout for this launch. AVATAR_STUDIO_KIOSK_PIN sets the operator PIN at start.`;

export const WebArguments = z.object({
  port: z.coerce.number().int().min(0).max(65535),
  // Loopback only: the bridge is meant for this machine's browser, never the network.
  host: z.enum(['127.0.0.1', 'localhost', '::1']),
  dataDir: z.string().min(1),
  libraryDir: z.string().min(1).optional(),
  kiosk: KioskLaunchArguments.optional(),
});
export type WebArguments = z.infer<typeof WebArguments>;

export function parseWebArguments(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): WebArguments {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      library: { type: 'string' },
      ...KIOSK_OPTIONS,
    },
    strict: true,
    allowPositionals: false,
  });
  return WebArguments.parse({
    port: values.port ?? '0',
    host: values.host ?? '127.0.0.1',
    dataDir: path.resolve(
      values['data-dir'] ??
        env.AVATAR_STUDIO_DATA_DIR ??
        path.join(os.homedir(), '.avatar-studio', 'studio'),
    ),
    libraryDir: values.library === undefined ? undefined : path.resolve(values.library),
    kiosk: kioskLaunchOf(values, env),
  });
}
