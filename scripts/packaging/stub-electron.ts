/**
 * A stand-in for the `electron` module, for starting the packed main under
 * plain Node (the Electron binary cannot run on the build machines). It
 * implements the calls main makes, records them as JSON lines in
 * $STUB_ELECTRON_RECORD, and drives one launch:
 *
 * 1. the app becomes ready; main opens its window and starts the back end;
 * 2. when the window loads the studio page, the stub asks the registered
 *    `app://` handler for it, calls `health.get` through the registered IPC
 *    handler as the window's own frame, and fetches `/openapi.json` from the
 *    embedded service that health names;
 * 3. it waits until both worker pools report ready in the log (the face
 *    models and wasm loaded from the packed layout), then quits the way a
 *    user does and records how the quit went.
 *
 * Bundled to CommonJS by the packaging check and placed as
 * `node_modules/electron/index.js` beside the extracted app.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EventEmitter } from 'node:events';

const RECORD = process.env.STUB_ELECTRON_RECORD ?? '';
const HOME = process.env.STUB_ELECTRON_HOME ?? '';
const WORKERS_READY_TIMEOUT_MS = Number(process.env.STUB_ELECTRON_WORKER_TIMEOUT_MS ?? 120_000);
if (!RECORD || !HOME) throw new Error('STUB_ELECTRON_RECORD and STUB_ELECTRON_HOME must be set');

export type StubRecord = { call: string } & Record<string, unknown>;
function record(call: string, details: Record<string, unknown> = {}): void {
  appendFileSync(RECORD, JSON.stringify({ call, ...details }) + '\n');
}

const paths: Record<string, string> = {
  userData: path.join(HOME, 'userData'),
  logs: path.join(HOME, 'logs'),
  temp: path.join(HOME, 'temp'),
  home: HOME,
};

type ProtocolHandler = (request: Request) => Promise<Response> | Response;
type IpcHandler = (event: unknown, payload: unknown) => Promise<unknown>;
let appProtocolHandler: ProtocolHandler | null = null;
const ipcHandlers = new Map<string, IpcHandler>();

class StubApp extends EventEmitter {
  isPackaged = true;
  private readyResolve!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.readyResolve = resolve));
  private quitting = false;
  constructor() {
    super();
    setTimeout(() => {
      record('app.ready');
      this.readyResolve();
      this.emit('ready');
    }, 10);
  }
  /** STUB_ELECTRON_LOCK=held plays a second launch: another instance has the lock. */
  requestSingleInstanceLock() {
    const ours = process.env.STUB_ELECTRON_LOCK !== 'held';
    record('app.requestSingleInstanceLock', { ours });
    return ours;
  }
  enableSandbox() {
    record('app.enableSandbox');
  }
  whenReady() {
    return this.ready;
  }
  getPath(name: string) {
    const found = paths[name] ?? path.join(HOME, name);
    mkdirSync(found, { recursive: true });
    return found;
  }
  getVersion() {
    return '0.0.0-stub';
  }
  setAboutPanelOptions() {}
  showAboutPanel() {}
  quit() {
    record('app.quit');
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    record('before-quit', { prevented });
    if (!prevented) this.finish(0);
  }
  exit(code = 0) {
    record('app.exit', { code });
    this.finish(code);
  }
  private finish(code: number) {
    if (this.quitting) return;
    this.quitting = true;
    record('process.exit', { code });
    // Let the last records and log lines reach the disk.
    setTimeout(() => process.exit(code), 50);
  }
}
export const app = new StubApp();

class StubWebContents extends EventEmitter {
  url = '';
  mainFrame = {
    get url() {
      return contentsUrl();
    },
  };
  private destroyed = false;
  constructor(private readonly window: StubBrowserWindow) {
    super();
  }
  send(channel: string, payload: unknown) {
    const type = (payload as { type?: unknown } | null)?.type;
    record('webContents.send', { channel, type });
  }
  isDestroyed() {
    return this.destroyed;
  }
  isCrashed() {
    return false;
  }
  forcefullyCrashRenderer() {}
  getURL() {
    return this.url;
  }
  setWindowOpenHandler() {}
  loadURL(url: string) {
    return this.window.loadURL(url);
  }
}
let currentContents: StubWebContents | null = null;
const contentsUrl = () => currentContents?.url ?? '';

class StubBrowserWindow extends EventEmitter {
  webContents: StubWebContents;
  private destroyed = false;
  constructor(options: { webPreferences?: Record<string, unknown> }) {
    super();
    this.webContents = new StubWebContents(this);
    currentContents = this.webContents;
    record('BrowserWindow.new', { webPreferences: options.webPreferences ?? {} });
    app.emit('web-contents-created', {}, this.webContents);
    setTimeout(() => this.emit('ready-to-show'), 5);
  }
  async loadURL(url: string) {
    this.webContents.url = url;
    record('window.loadURL', { url: url.startsWith('data:') ? 'data:' : url });
    if (url.startsWith('app://')) setTimeout(() => void exerciseStudio(this), 10);
  }
  show() {
    record('window.show');
  }
  focus() {}
  isMinimized() {
    return false;
  }
  restore() {}
  maximize() {}
  isMaximized() {
    return false;
  }
  getNormalBounds() {
    return { x: 10, y: 10, width: 1280, height: 860 };
  }
  isDestroyed() {
    return this.destroyed;
  }
}
export const BrowserWindow = StubBrowserWindow;

async function waitForLog(patterns: RegExp[], timeoutMs: number): Promise<string[]> {
  const file = path.join(paths.logs!, 'main.log');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const missing = patterns.filter((p) => !p.test(text));
    if (missing.length === 0 || Date.now() > deadline) return missing.map(String);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function exerciseStudio(window: StubBrowserWindow): Promise<void> {
  try {
    if (!appProtocolHandler) throw new Error('no app:// handler was registered');
    const page = await appProtocolHandler(new Request(window.webContents.url));
    const body = await page.text();
    record('app-protocol.index', {
      status: page.status,
      contentType: page.headers.get('content-type'),
      csp: page.headers.get('content-security-policy'),
      isHtml: /<html/i.test(body),
    });
    const invoke = ipcHandlers.get('studio:invoke') ?? [...ipcHandlers.values()][0];
    if (!invoke) throw new Error('no IPC handler was registered');
    const frame = window.webContents.mainFrame;
    const health = (await invoke(
      { sender: window.webContents, senderFrame: frame },
      { name: 'health.get', input: {} },
    )) as { ok: boolean; value?: { service?: { state?: string; baseUrl?: string | null } } };
    record('ipc.health.get', { ok: health.ok, service: health.value?.service ?? null });
    const baseUrl = health.value?.service?.baseUrl;
    if (baseUrl) {
      const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/openapi.json`);
      const document = (await response.json().catch(() => null)) as { openapi?: string } | null;
      record('service.openapi', { status: response.status, openapi: document?.openapi ?? null });
    }
    const missing = await waitForLog(
      [/processing worker ready/, /avatar worker ready/, /head texture helper ready/],
      WORKERS_READY_TIMEOUT_MS,
    );
    record('workers', { missing });
  } catch (error) {
    record('stub.error', { message: error instanceof Error ? error.message : String(error) });
  }
  app.quit();
}

export const protocol = {
  registerSchemesAsPrivileged(schemes: { scheme: string }[]) {
    record('protocol.registerSchemesAsPrivileged', { schemes: schemes.map((s) => s.scheme) });
  },
  handle(scheme: string, handler: ProtocolHandler) {
    record('protocol.handle', { scheme });
    if (scheme === 'app') appProtocolHandler = handler;
  },
};

export const ipcMain = {
  handle(channel: string, handler: IpcHandler) {
    record('ipcMain.handle', { channel });
    ipcHandlers.set(channel, handler);
  },
};

const stubSession = {
  setPermissionRequestHandler() {},
  setPermissionCheckHandler() {},
};
export const session = { defaultSession: stubSession, fromPartition: () => stubSession };

export const screen = {
  getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
};

interface MenuItem {
  label?: string;
  role?: string;
  submenu?: MenuItem[];
}
export const Menu = {
  buildFromTemplate: (template: MenuItem[]) => template,
  setApplicationMenu(template: MenuItem[]) {
    const describe = (item: MenuItem): unknown =>
      item.submenu
        ? { [item.label ?? item.role ?? '?']: item.submenu.map(describe) }
        : (item.label ?? item.role ?? 'separator');
    record('Menu.setApplicationMenu', { menu: template.map(describe) });
  },
};

export const dialog = {
  showErrorBox(title: string, content: string) {
    record('dialog.showErrorBox', { title, content });
  },
  async showMessageBox(_window: unknown, options: { message: string }) {
    record('dialog.showMessageBox', { message: options.message });
    return { response: 1 };
  },
  async showSaveDialog() {
    return { canceled: true };
  },
  async showOpenDialog() {
    return { canceled: true, filePaths: [] };
  },
};

export const shell = {
  async openExternal() {},
  async openPath() {
    return '';
  },
  showItemInFolder() {},
};

export default { app, BrowserWindow, protocol, ipcMain, session, screen, Menu, dialog, shell };
