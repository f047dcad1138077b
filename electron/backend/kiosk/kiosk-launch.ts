import { parseArgs } from 'node:util';
import { z } from 'zod';
import { KioskPin } from '../../../shared/studio/index.js';
import type { KioskLaunch } from './kiosk-feature.js';

/** `--kiosk [--kiosk-idle-seconds N]`, and the PIN from AVATAR_STUDIO_KIOSK_PIN. */
export const KioskLaunchArguments = z
  .object({
    enabled: z.literal(true),
    idleSeconds: z.coerce.number().int().min(3).max(600).optional(),
    pin: KioskPin.optional(),
  })
  .strict();

export const KIOSK_OPTIONS = {
  kiosk: { type: 'boolean' },
  'kiosk-idle-seconds': { type: 'string' },
} as const;

/** The kiosk part of a command line already split by parseArgs; undefined without `--kiosk`. */
export function kioskLaunchOf(
  values: { kiosk?: boolean | string; 'kiosk-idle-seconds'?: boolean | string },
  env: NodeJS.ProcessEnv,
): KioskLaunch | undefined {
  const idleSeconds = values['kiosk-idle-seconds'];
  if (!values.kiosk) {
    if (idleSeconds !== undefined) throw new Error('--kiosk-idle-seconds needs --kiosk.');
    return undefined;
  }
  return KioskLaunchArguments.parse({
    enabled: values.kiosk,
    ...(idleSeconds === undefined ? {} : { idleSeconds }),
    ...(env.AVATAR_STUDIO_KIOSK_PIN ? { pin: env.AVATAR_STUDIO_KIOSK_PIN } : {}),
  });
}

/**
 * The desktop app's command line: Electron and Chromium add switches of
 * their own, so unknown ones are let through; ours are still checked.
 */
export function parseKioskLaunch(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): KioskLaunch | undefined {
  const { values } = parseArgs({
    args: [...argv],
    options: KIOSK_OPTIONS,
    strict: false,
    allowPositionals: true,
  });
  return kioskLaunchOf(values, env);
}
