import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { appMenuTemplate } from './app-menu.js';
import { quitGuard } from './quit-guard.js';
import { rendererRecovery } from './renderer-recovery.js';
import { rotatingLog } from './rotating-log.js';
import { STARTING_PAGE, statusPageUrl } from './starting-page.js';
import { initialBounds, loadWindowState, saveWindowState } from './window-state.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'shell-modules-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the window state', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

  it('round-trips through an atomic file and ignores a damaged one', () => {
    const file = path.join(tmp, 'state', 'window-state.json');
    expect(loadWindowState(file)).toBeNull();
    const state = { bounds: { x: 100, y: 50, width: 1400, height: 900 }, maximized: true };
    saveWindowState(file, state);
    expect(loadWindowState(file)).toEqual(state);
    expect(readdirSync(path.dirname(file))).toEqual(['window-state.json']);
    writeFileSync(file, '{"bounds": {"x": 1');
    expect(loadWindowState(file)).toBeNull();
    writeFileSync(file, JSON.stringify({ bounds: { x: 0, y: 0, width: -5, height: 2 } }));
    expect(loadWindowState(file)).toBeNull();
  });

  it('reopens where it was when that place is still on a display', () => {
    const saved = { bounds: { x: 100, y: 50, width: 1400, height: 900 }, maximized: false };
    expect(initialBounds(saved, screen)).toEqual({ bounds: saved.bounds, maximized: false });
  });

  it('falls back to a default size when the display is gone', () => {
    const saved = { bounds: { x: 2500, y: 100, width: 1400, height: 900 }, maximized: true };
    const start = initialBounds(saved, screen);
    expect(start.bounds).toEqual({ width: 1280, height: 860 });
    expect(start.maximized).toBe(true);
  });

  it('never opens larger than the display or smaller than the minimum', () => {
    const saved = { bounds: { x: 0, y: 0, width: 5000, height: 300 }, maximized: false };
    expect(initialBounds(saved, screen).bounds).toEqual({ x: 0, y: 0, width: 1920, height: 640 });
    expect(initialBounds(null, [{ x: 0, y: 0, width: 1024, height: 700 }]).bounds).toEqual({
      width: 1024,
      height: 700,
    });
  });
});

describe('the rotating log', () => {
  it('rotates by size and keeps a bounded number of files', () => {
    const dir = path.join(tmp, 'logs');
    const log = rotatingLog({ dir, maxBytes: 100, keep: 2 });
    for (let i = 0; i < 20; i++)
      log.write(`line ${String(i).padStart(2, '0')} ${'x'.repeat(30)}\n`);
    expect(readdirSync(dir).sort()).toEqual(['main.log', 'main.log.1', 'main.log.2']);
    const current = readFileSync(log.file, 'utf8');
    expect(current).toContain('line 19');
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(100);
    expect(readFileSync(`${log.file}.2`, 'utf8')).not.toContain('line 00');
  });

  it('continues an existing file after a restart', () => {
    const dir = path.join(tmp, 'logs-restart');
    rotatingLog({ dir, maxBytes: 1000 }).write('first\n');
    rotatingLog({ dir, maxBytes: 1000 }).write('second\n');
    expect(readFileSync(path.join(dir, 'main.log'), 'utf8')).toBe('first\nsecond\n');
    expect(existsSync(path.join(dir, 'main.log.1'))).toBe(false);
  });
});

describe('renderer recovery', () => {
  it('reloads after a crash with a notice, and asks instead once it keeps crashing', () => {
    let now = 0;
    const recovery = rendererRecovery({ now: () => now, maxCrashes: 3, windowMs: 60_000 });
    expect(recovery.onGone('clean-exit')).toEqual({ action: 'ignore' });
    const first = recovery.onGone('crashed');
    expect(first.action).toBe('reload');
    expect(first.action !== 'ignore' && first.notice).toMatch(/crashed.*reloaded/);
    now = 1_000;
    expect(recovery.onGone('oom').action).toBe('reload');
    now = 2_000;
    expect(recovery.onGone('crashed').action).toBe('ask');
    now = 200_000;
    expect(recovery.onGone('killed').action).toBe('reload');
  });

  it('in kiosk mode reloads without a dialog, pausing in a crash loop, and reloads a hung booth', () => {
    let now = 0;
    const recovery = rendererRecovery({
      now: () => now,
      maxCrashes: 3,
      windowMs: 60_000,
      unattended: () => true,
      loopDelayMs: 10_000,
    });
    const silent = { action: 'reload', notice: null, delayMs: 0 };
    expect(recovery.onGone('crashed')).toEqual(silent);
    now = 1_000;
    expect(recovery.onGone('crashed')).toEqual(silent);
    now = 2_000;
    expect(recovery.onGone('oom')).toEqual({ ...silent, delayMs: 10_000 });
    expect(recovery.onUnresponsive()).toEqual(silent);
  });

  it('asks before reloading a page that hangs', () => {
    const step = rendererRecovery({ now: () => 0 }).onUnresponsive();
    expect(step.action).toBe('ask');
  });
});

describe('the quit guard', () => {
  it('holds the quit until the back end stopped, then quits once', async () => {
    let release!: () => void;
    const stop = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const quit = vi.fn();
    const guard = quitGuard({ stop, quit });
    const event = { preventDefault: vi.fn() };
    guard.beforeQuit(event);
    guard.beforeQuit(event);
    expect(event.preventDefault).toHaveBeenCalledTimes(2);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(quit).not.toHaveBeenCalled();
    release();
    await vi.waitFor(() => expect(quit).toHaveBeenCalledTimes(1));
    const last = { preventDefault: vi.fn() };
    guard.beforeQuit(last);
    expect(last.preventDefault).not.toHaveBeenCalled();
  });

  it('quits anyway when the stop fails or hangs', async () => {
    const errors: unknown[] = [];
    const quit = vi.fn();
    const guard = quitGuard({
      stop: () => new Promise<void>(() => undefined),
      quit,
      timeoutMs: 20,
      onError: (e) => errors.push(e),
    });
    guard.beforeQuit({ preventDefault: () => undefined });
    await vi.waitFor(() => expect(quit).toHaveBeenCalledTimes(1));
    expect(String(errors[0])).toMatch(/did not stop within 20 ms/);
  });
});

describe('the app menu', () => {
  const actions = { openLibraryFolder: vi.fn(), openLogsFolder: vi.fn(), about: vi.fn() };
  const flat = (packaged: boolean, platform: NodeJS.Platform) =>
    JSON.stringify(appMenuTemplate({ appName: 'Avatar Studio', packaged, platform, actions }));

  it('has File (library, quit), Edit, View and Help (about, logs)', () => {
    const menu = appMenuTemplate({
      appName: 'Avatar Studio',
      packaged: true,
      platform: 'linux',
      actions,
    });
    const file = menu.find((m) => m.label === 'File');
    const fileItems = (file?.submenu as { label?: string; role?: string }[]).map(
      (i) => i.label ?? i.role,
    );
    expect(fileItems).toContain('Open Library Folder');
    expect(fileItems).toContain('quit');
    expect(menu.some((m) => m.role === 'editMenu')).toBe(true);
    const help = menu.find((m) => m.role === 'help')?.submenu as {
      label?: string;
      click?: () => void;
    }[];
    help.find((i) => i.label === 'Open Logs Folder')?.click?.();
    expect(actions.openLogsFolder).toHaveBeenCalled();
    expect(help.some((i) => i.label === 'About Avatar Studio')).toBe(true);
  });

  it('offers DevTools only in development', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      expect(flat(true, platform)).not.toMatch(/toggleDevTools/);
      expect(flat(false, platform)).toMatch(/toggleDevTools/);
    }
  });
});

describe('the status page', () => {
  it('is a script-free data: page that escapes its text', () => {
    const url = statusPageUrl({
      title: 'Failed',
      message: '<script>alert(1)</script>',
      failed: true,
    });
    const html = decodeURIComponent(url.slice('data:text/html;charset=utf-8,'.length));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;');
    expect(html).toContain("default-src 'none'");
    expect(decodeURIComponent(STARTING_PAGE)).toMatch(/starting/);
  });
});
