/**
 * The Electron shell: windows, protocol, IPC wiring and security settings.
 * Everything else lives in the back end (electron/backend), which never
 * imports electron. See docs/security.md for how each checklist item is met.
 */
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import path from 'node:path';
import { createStudioBackend } from '../backend/index.js';
import { APP_ORIGIN, type StudioHandler } from '../../shared/studio/index.js';
import { registerAppScheme, serveRenderer } from './app-protocol.js';
import {
  WEB_PREFERENCES,
  isAppUrl,
  navigationAllowed,
  permissionAllowed,
  permissionCheckAllowed,
  windowOpenDecision,
} from './security-policy.js';
import { forwardStudioEvents, registerStudioIpc } from './studio-ipc.js';

// Runs from source through entry.mjs (tsx), like the service; the UI and the sandboxed preload are built into dist/.
const ROOT = path.resolve(import.meta.dirname, '../..');
const RENDERER_DIR = path.join(ROOT, 'dist', 'renderer');
const PRELOAD = path.join(ROOT, 'dist', 'preload', 'preload.cjs');

registerAppScheme(protocol);
app.enableSandbox();
if (!app.requestSingleInstanceLock()) app.quit();

let mainWindow: BrowserWindow | null = null;
let apiBaseUrl: string | null = null;

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

function wireIpc(backend: StudioHandler): void {
  registerStudioIpc(
    ipcMain,
    backend,
    (event) =>
      mainWindow !== null &&
      event.sender === mainWindow.webContents &&
      event.senderFrame !== null &&
      event.senderFrame === event.sender.mainFrame &&
      isAppUrl(event.senderFrame.url),
    async (name, input) => {
      if (name !== 'files.saveAs' || !mainWindow) return { input };
      // The destination comes from the OS dialog, never from the page.
      const { destination } = input as { destination: string };
      const chosen = await dialog.showSaveDialog(mainWindow, { defaultPath: destination });
      if (chosen.canceled || !chosen.filePath)
        return { result: { ok: false, error: { kind: 'bad_input', message: 'Save cancelled.' } } };
      return { input: { ...(input as object), destination: chosen.filePath } };
    },
  );
  backend.subscribe((event) => {
    if (event.type === 'health') apiBaseUrl = event.health.service.baseUrl;
  });
}

async function createWindow(backend: StudioHandler): Promise<void> {
  mainWindow = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'Avatar Studio',
    webPreferences: { ...WEB_PREFERENCES, preload: PRELOAD },
  });
  forwardStudioEvents(backend, mainWindow.webContents);
  mainWindow.once('ready-to-show', () => mainWindow?.show());
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  await mainWindow.loadURL(`${APP_ORIGIN}/index.html`);
}

async function start(): Promise<void> {
  await app.whenReady();
  const backend = await createStudioBackend({
    dataDir: app.getPath('userData'),
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
    },
  });
  serveRenderer(protocol, RENDERER_DIR);
  hardenSessions();
  hardenEveryWebContents();
  wireIpc(backend);
  const health = await backend.handle('health.get', {});
  if (health.ok && 'service' in health.value) apiBaseUrl = health.value.service.baseUrl;
  await createWindow(backend);
  app.on('second-instance', () => mainWindow?.focus());
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => void backend.close());
}

start().catch((error: unknown) => {
  dialog.showErrorBox('Avatar Studio could not start', String(error));
  app.exit(1);
});
