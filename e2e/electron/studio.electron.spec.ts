/**
 * The desktop app end to end, through Playwright's Electron driver: it
 * starts the built app (package.json `main`, the same bundles the package
 * ships), waits through the starting page for the studio, checks the
 * bridge and the embedded service, and quits. It needs the Electron binary,
 * which the offline build machines do not have; there it skips with one line.
 * Run with `npx playwright test -c e2e/playwright.config.ts e2e/electron`
 * after `npm run build:renderer && npm run build:electron`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { REPO_DIR } from '../paths.js';
import { electronBinary } from '../../scripts/electron-binary.js';

const binary = electronBinary();
const built = existsSync(path.join(REPO_DIR, 'dist', 'app', 'main.cjs'));

test.describe('the desktop app', () => {
  test.skip(!binary, 'No Electron binary here (node_modules/electron/dist is not installed).');
  test.skip(!built, 'The app is not built: run npm run build:renderer && npm run build:electron.');

  test('starts, shows the studio, reaches the embedded service and quits', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'studio-electron-e2e-'));
    const app = await electron.launch({
      executablePath: binary!,
      args: [REPO_DIR, `--user-data-dir=${path.join(home, 'userData')}`],
      env: { ...process.env, HOME: home },
    });
    try {
      const window = await app.firstWindow();
      await expect.poll(() => window.url(), { timeout: 120_000 }).toBe('app://studio/index.html');
      await expect(window.locator('body')).not.toBeEmpty();
      const bridge = await window.evaluate(() =>
        Object.keys((window as unknown as { studio: object }).studio).sort(),
      );
      expect(bridge).toEqual(['invoke', 'subscribe']);
      const health = await window.evaluate(() =>
        (
          window as unknown as { studio: { invoke(n: string, i: object): Promise<unknown> } }
        ).studio.invoke('health.get', {}),
      );
      expect(health).toMatchObject({
        ok: true,
        value: { service: { state: 'ready', embedded: true } },
      });
      const menu = await app.evaluate(({ Menu }) =>
        Menu.getApplicationMenu()?.items.map((item) => item.label ?? item.role),
      );
      expect(menu).toEqual(expect.arrayContaining(['File', 'Edit', 'View', 'Help']));
    } finally {
      await app.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
