import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = path.resolve(E2E_DIR, '..');
export const FIXTURES = path.join(E2E_DIR, 'fixtures');
/** Where global setup writes the decompressed fake-webcam clip; Chromium reads it at launch. */
export const FAKE_WEBCAM_Y4M = path.join(os.tmpdir(), 'avatar-studio-e2e', 'turning-head.y4m');
export const SCREENSHOTS = path.join(REPO_DIR, 'test-results', 'screenshots');

/** Chromium flags for headless runs with the fake webcam. */
export function chromiumArgs(y4m: string): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${y4m}`,
  ];
}
