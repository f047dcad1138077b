import { FAKE_WEBCAM_Y4M } from './paths.js';
import { prepareFakeWebcam, runChecked, startWebServer } from './web-server.js';

/**
 * Builds the renderer, unpacks the fake webcam clip and starts web mode on a
 * free port with a fresh data dir. Tests read the app's URL (with its
 * one-time key) from STUDIO_URL; set STUDIO_URL yourself to test a studio
 * that is already running (E2E_SKIP_BUILD skips the build).
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  await prepareFakeWebcam(FAKE_WEBCAM_Y4M);
  // Against a studio that is already running (its URL with the key): nothing to start.
  if (process.env.STUDIO_URL) return undefined;
  if (!process.env.E2E_SKIP_BUILD) await runChecked('npm', ['run', '--silent', 'build:renderer']);
  const server = await startWebServer();
  process.env.STUDIO_URL = server.url;
  process.env.STUDIO_DATA_DIR = server.dataDir;
  return () => server.stop();
}
