/**
 * The Electron shell: windows, protocol, menu, IPC wiring, logs and the
 * quit sequence. The decisions live in Electron-free modules beside it
 * (security-policy, renderer-recovery, quit-guard, window-state, app-menu,
 * rotating-log); the back end (electron/backend) never imports electron.
 * See docs/security.md for how each checklist item is met.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  protocol,
  screen,
  session,
  shell,
  type WebContents,
} from 'electron';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createStudioBackend, type StudioBackend } from '../backend/index.js';
import { createLogger, type Logger } from '../../service/index.js';
import { APP_ORIGIN } from '../../shared/studio/index.js';
import { appMenuTemplate } from './app-menu.js';
import { registerAppScheme, serveRenderer } from './app-protocol.js';
import { dialogCommands } from './dialog-commands.js';
import { quitGuard } from './quit-guard.js';
import { rendererRecovery, type RecoveryAction } from './renderer-recovery.js';
import { rotatingLog } from './rotating-log.js';
import {
  WEB_PREFERENCES,
  isAppUrl,
  navigationAllowed,
  permissionAllowed,
  permissionCheckAllowed,
  windowOpenDecision,
} from './security-policy.js';
import { STARTING_PAGE, statusPageUrl } from './starting-page.js';
import { forwardStudioEvents, registerStudioIpc } from './studio-ipc.js';
import { parseKioskLaunch } from '../backend/kiosk/kiosk-launch.js';
import { isKioskOn, kioskDesktop, startKioskWindow } from './kiosk-shell.js';
import { initialBounds, loadWindowState, MIN_SIZE, saveWindowState } from './window-state.js';

// Both from source (electron/main) and bundled (dist/app), the app root is two folders up.
const ROOT = path.resolve(import.meta.dirname, '../..');
const RENDERER_DIR = path.join(ROOT, 'dist', 'renderer');
const PRELOAD = path.join(ROOT, 'dist', 'preload', 'preload.cjs');
const ICON = path.join(ROOT, 'assets', 'icon.png');
const STUDIO_PAGE = `${APP_ORIGIN}/index.html`;

let mainWindow: BrowserWindow | null = null;
let apiBaseUrl: string | null = null;
let focusWhenShown = false;

function hardenEveryWebContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!navigationAllowed(url)) event.preventDefault();
    });
    contents.on('will-frame-navigate', (event) => {
      if (event.isMainFrame && !navigationAllowed(event.url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!navigationAllowed(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const decision = windowOpenDecision(url, apiBaseUrl);
      if (decision.action === 'external') void shell.openExternal(decision.url);
      if (decision.action !== 'session-window') return { action: 'deny' };
      return {
        action: 'allow',
        // The hosted editor gets no preload and no bridge: it is somebody else's page.
        overrideBrowserWindowOptions: {
          width: 1100,
          height: 800,
          webPreferences: { ...WEB_PREFERENCES, preload: undefined, partition: 'hosted-editor' },
        },
      };
    });
  });
}

function hardenSessions(): void {
  for (const s of [session.defaultSession, session.fromPartition('hosted-editor')]) {
    s.setPermissionRequestHandler((contents, permission, callback, details) => {
      const mediaTypes = 'mediaTypes' in details ? (details.mediaTypes ?? []) : [];
      callback(
        permissionAllowed(permission, details.requestingUrl ?? contents.getURL(), mediaTypes),
      );
    });
    s.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
      permissionCheckAllowed(permission, requestingOrigin),
    );
  }
}

/** Only our own page, in our window's top frame, reaches the back end. */
function wireIpc(backend: StudioBackend): void {
  registerStudioIpc(
    ipcMain,
    backend,
    (event) =>
      mainWindow !== null &&
      event.sender === mainWindow.webContents &&
      event.senderFrame !== null &&
      event.senderFrame === event.sender.mainFrame &&
      isAppUrl(event.senderFrame.url),
    dialogCommands({
      chooseSaveFile: async (defaultPath) => {
        if (!mainWindow) return null;
        const chosen = await dialog.showSaveDialog(mainWindow, { defaultPath });
        return chosen.canceled ? null : (chosen.filePath ?? null);
      },
      chooseFolder: async (defaultPath) => {
        if (!mainWindow) return null;
        const chosen = await dialog.showOpenDialog(mainWindow, {
          title: 'Choose the library folder',
          defaultPath,
          properties: ['openDirectory', 'createDirectory'],
        });
        return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
      },
    }),
  );
  backend.subscribe((event) => {
    if (event.type === 'health') apiBaseUrl = event.health.service.baseUrl;
  });
}

function revealWindow(): void {
  if (!mainWindow) {
    focusWhenShown = true;
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function rememberBounds(window: BrowserWindow, file: string, log: Logger): void {
  const save = () => {
    try {
      saveWindowState(file, {
        bounds: window.getNormalBounds(),
        maximized: window.isMaximized(),
      });
    } catch (error) {
      log.warn('could not save the window state', { error: String(error) });
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  window.on('resize', later);
  window.on('move', later);
  window.on('close', () => {
    clearTimeout(timer);
    save();
  });
}

function createWindow(stateFile: string, log: Logger): BrowserWindow {
  const start = initialBounds(
    loadWindowState(stateFile),
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow({
    ...start.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: 'Avatar Studio',
    icon: ICON,
    backgroundColor: '#16181d',
    webPreferences: { ...WEB_PREFERENCES, preload: PRELOAD, devTools: !app.isPackaged },
  });
  if (start.maximized) window.maximize();
  window.once('ready-to-show', () => {
    window.show();
    if (focusWhenShown) revealWindow();
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  rememberBounds(window, stateFile, log);
  return window;
}

/** The page main last put in the window: the one a recovery reloads. */
let shownPage = STARTING_PAGE;
function show(window: BrowserWindow, page: string): Promise<void> {
  shownPage = page;
  return window.loadURL(page);
}

function watchRenderer(window: BrowserWindow, log: Logger): void {
  const recovery = rendererRecovery({ now: Date.now, unattended: isKioskOn });
  const contents: WebContents = window.webContents;
  const act = async (step: RecoveryAction) => {
    if (step.action === 'ignore' || window.isDestroyed()) return;
    if (step.action === 'reload') {
      if (step.delayMs > 0) await new Promise((r) => setTimeout(r, step.delayMs));
      if (window.isDestroyed()) return;
      if (!contents.isCrashed() && step.notice === null) contents.forcefullyCrashRenderer();
      contents.loadURL(shownPage).catch(() => undefined);
      if (step.notice !== null)
        await dialog.showMessageBox(window, { type: 'warning', message: step.notice });
      return;
    }
    const answer = await dialog.showMessageBox(window, {
      type: 'warning',
      message: step.notice,
      buttons: ['Reload', 'Wait', 'Quit'],
      defaultId: 0,
      cancelId: 1,
    });
    if (window.isDestroyed()) return;
    if (answer.response === 0) {
      if (contents.isCrashed()) contents.loadURL(shownPage).catch(() => undefined);
      else {
        contents.forcefullyCrashRenderer();
        contents.loadURL(shownPage).catch(() => undefined);
      }
    } else if (answer.response === 2) app.quit();
  };
  contents.on('render-process-gone', (_event, details) => {
    log.error('the studio window stopped', { reason: details.reason, exit_code: details.exitCode });
    void act(recovery.onGone(details.reason));
  });
  window.on('unresponsive', () => {
    log.warn('the studio window is not responding');
    void act(recovery.onUnresponsive());
  });
}

/** `backend` is read when a menu item is used: the menu exists before the back end does. */
function installMenu(
  backend: () => Promise<StudioBackend> | null,
  logsDir: string,
  log: Logger,
): void {
  const openFolder = async (folder: string) => {
    mkdirSync(folder, { recursive: true });
    const problem = await shell.openPath(folder);
    if (problem) log.warn('could not open a folder', { folder, problem });
  };
  app.setAboutPanelOptions({
    applicationName: 'Avatar Studio',
    applicationVersion: app.getVersion(),
    copyright: 'Copyright © 2026 Avatar Studio',
  });
  const template = appMenuTemplate({
    appName: 'Avatar Studio',
    packaged: app.isPackaged,
    platform: process.platform,
    actions: {
      openLibraryFolder: () => {
        void Promise.resolve(backend())
          .then((b) => b?.handle('settings.get', {}))
          .then((settings) =>
            settings?.ok && 'libraryDir' in settings.value
              ? openFolder(settings.value.libraryDir)
              : undefined,
          )
          .catch((error: unknown) =>
            log.warn('could not open the library', { error: String(error) }),
          );
      },
      openLogsFolder: () => void openFolder(logsDir),
      about: () => app.showAboutPanel(),
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function shellLogger(logsDir: string): Logger {
  const file = rotatingLog({ dir: logsDir });
  return createLogger(undefined, (line) => {
    process.stderr.write(line);
    file.write(line);
  });
}

async function start(log: Logger, logsDir: string): Promise<void> {
  await app.whenReady();
  const userData = app.getPath('userData');
  serveRenderer(protocol, RENDERER_DIR);
  hardenSessions();
  hardenEveryWebContents();

  let backend: Promise<StudioBackend> | null = null;
  installMenu(() => backend, logsDir, log);

  const window = createWindow(path.join(userData, 'window-state.json'), log);
  mainWindow = window;
  watchRenderer(window, log);
  await show(window, STARTING_PAGE);

  backend = createStudioBackend({
    dataDir: userData,
    log,
    kiosk: parseKioskLaunch(process.argv.slice(1)),
    desktop: {
      reveal: async (target: string) => {
        shell.showItemInFolder(target);
        return true;
      },
      chooseFolder: async () => {
        const options = { properties: ['openDirectory' as const], title: 'Choose a batch folder' };
        const chosen = mainWindow
          ? await dialog.showOpenDialog(mainWindow, options)
          : await dialog.showOpenDialog(options);
        return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
      },
      ...kioskDesktop(() => mainWindow),
    },
  });
  const starting = backend;
  const guard = quitGuard({
    stop: async () => {
      const running = await starting.catch(() => null);
      await running?.close();
      log.info('the back end stopped');
    },
    quit: () => app.quit(),
    onError: (error) => log.error('the back end did not stop cleanly', { error: String(error) }),
  });
  app.on('before-quit', (event) => guard.beforeQuit(event));
  app.on('window-all-closed', () => app.quit());

  let ready: StudioBackend;
  try {
    ready = await starting;
  } catch (error) {
    log.error('the back end could not start', { error: String(error) });
    if (!window.isDestroyed())
      await show(
        window,
        statusPageUrl({
          title: 'Avatar Studio could not start',
          message: `${error instanceof Error ? error.message : String(error)}\n\nThe log is in ${logsDir}.`,
          failed: true,
        }),
      );
    return;
  }
  log.info('the back end started');
  wireIpc(ready);
  const health = await ready.handle('health.get', {});
  if (health.ok && 'service' in health.value) apiBaseUrl = health.value.service.baseUrl;
  if (window.isDestroyed()) return;
  forwardStudioEvents(ready, window.webContents);
  await startKioskWindow(window, ready);
  await show(window, STUDIO_PAGE);
}

/** Runs in the instance that holds the single-instance lock (entry.ts). */
export function startShell(): void {
  // Both must happen before the app is ready.
  registerAppScheme(protocol);
  app.enableSandbox();
  const logsDir = app.getPath('logs');
  const log = shellLogger(logsDir);
  log.info('starting', { version: app.getVersion(), packaged: app.isPackaged });
  app.on('second-instance', () => revealWindow());
  start(log, logsDir).catch((error: unknown) => {
    log.error('the shell could not start', { error: String(error) });
    dialog.showErrorBox('Avatar Studio could not start', String(error));
    app.exit(1);
  });
}
