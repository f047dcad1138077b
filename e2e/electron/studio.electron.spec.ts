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
      const page = await app.firstWindow();
      await expect.poll(() => page.url(), { timeout: 120_000 }).toBe('app://studio/index.html');
      await expect(page.locator('body')).not.toBeEmpty();
      const bridge = await page.evaluate(() =>
        Object.keys((globalThis as unknown as { studio: object }).studio).sort(),
      );
      expect(bridge).toEqual(['invoke', 'subscribe']);
      type Studio = { invoke(name: string, input: object): Promise<unknown> };
      const invoke = (name: string, input: object) =>
        page.evaluate(
          ([n, i]: readonly [string, object]) =>
            (globalThis as unknown as { studio: Studio }).studio.invoke(n, i),
          [name, input] as const,
        );
      expect(await invoke('health.get', {})).toMatchObject({
        ok: true,
        value: { service: { state: 'ready', embedded: true } },
      });
      expect(await invoke('people.create', { name: 'Electron E2E' })).toMatchObject({ ok: true });
      const people = (await invoke('people.list', {})) as {
        ok: boolean;
        value: { name: string }[];
      };
      expect(people.value.map((p) => p.name)).toContain('Electron E2E');
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
