/**
 * Reads the stub electron's records of one launch of the packed main and
 * says what went wrong, if anything. Kept apart from the stub so each rule
 * is tested on hand-made records.
 */
export type LaunchRecord = { call: string } & Record<string, unknown>;

const STUDIO_PAGE = 'app://studio/index.html';

export function launchProblems(
  records: readonly LaunchRecord[],
  exitCode: number | null,
  /** The app's main.log after the launch. */
  log: string,
): string[] {
  const problems: string[] = [];
  const find = (call: string) => records.find((r) => r.call === call);
  const all = (call: string) => records.filter((r) => r.call === call);

  for (const error of all('stub.error')) problems.push(`stub: ${String(error.message)}`);
  for (const box of all('dialog.showErrorBox'))
    problems.push(`error box: ${String(box.title)}: ${String(box.content)}`);

  if (!find('app.requestSingleInstanceLock'))
    problems.push('the single-instance lock was not taken');
  if (!all('protocol.handle').some((r) => r.scheme === 'app'))
    problems.push('no app:// handler was registered');

  const window = find('BrowserWindow.new');
  if (!window) problems.push('no window was created');
  else {
    const prefs = (window.webPreferences ?? {}) as Record<string, unknown>;
    if (
      prefs.sandbox !== true ||
      prefs.contextIsolation !== true ||
      prefs.nodeIntegration !== false
    )
      problems.push('the window is not sandboxed and isolated');
    if (prefs.devTools !== false) problems.push('DevTools are not disabled in the packaged app');
  }
  const loads = all('window.loadURL').map((r) => String(r.url));
  if (loads[0] !== 'data:') problems.push('the window did not show a starting page first');
  if (!loads.includes(STUDIO_PAGE)) problems.push(`the window never loaded ${STUDIO_PAGE}`);

  const page = find('app-protocol.index');
  if (!page) problems.push('the app:// handler was not asked for index.html');
  else if (page.status !== 200 || !String(page.contentType).startsWith('text/html') || !page.isHtml)
    problems.push(
      `app://studio/index.html answered ${String(page.status)} ${String(page.contentType)}`,
    );
  else if (!page.csp) problems.push('index.html came without a Content-Security-Policy');

  const health = find('ipc.health.get') as
    | (LaunchRecord & { ok?: boolean; service?: { state?: string; embedded?: boolean } | null })
    | undefined;
  if (!health) problems.push('health.get was not answered through IPC');
  else if (!health.ok || health.service?.state !== 'ready' || health.service.embedded !== true)
    problems.push(`the back end is not ready with the embedded service: ${JSON.stringify(health)}`);

  const openapi = find('service.openapi');
  if (!openapi) problems.push('the embedded service was not reached');
  else if (openapi.status !== 200 || typeof openapi.openapi !== 'string')
    problems.push(`/openapi.json answered ${String(openapi.status)}`);

  const workers = find('workers') as (LaunchRecord & { missing?: string[] }) | undefined;
  if (!workers) problems.push('the worker pools were not checked');
  else if ((workers.missing ?? []).length > 0)
    problems.push(`workers not ready: ${(workers.missing ?? []).join(', ')}`);

  const menu = JSON.stringify(find('Menu.setApplicationMenu')?.menu ?? null);
  for (const item of ['Open Library Folder', 'Open Logs Folder', 'quit', 'editMenu'])
    if (!menu.includes(item)) problems.push(`the menu has no "${item}"`);
  if (/toggleDevTools/i.test(menu)) problems.push('the packaged menu offers DevTools');

  const quits = all('before-quit');
  if (quits[0]?.prevented !== true)
    problems.push('quit did not wait for the back end (before-quit was not held)');
  if (!quits.some((q) => q.prevented === false)) problems.push('the app never finished quitting');
  if (!/"msg":"the back end stopped"/.test(log))
    problems.push('the log does not say the back end stopped before the app quit');
  if (exitCode !== 0) problems.push(`the process exited with ${String(exitCode)}`);
  return problems;
}

/** A launch that lost the single-instance lock: it must exit having started nothing. */
export function losingInstanceProblems(
  records: readonly LaunchRecord[],
  exitCode: number | null,
  createdUserData: boolean,
): string[] {
  const problems: string[] = [];
  const lock = records.find((r) => r.call === 'app.requestSingleInstanceLock');
  if (!lock || lock.ours !== false) problems.push('the stub did not refuse the lock');
  const started = records
    .map((r) => r.call)
    .filter((call) =>
      [
        'protocol.registerSchemesAsPrivileged',
        'protocol.handle',
        'BrowserWindow.new',
        'ipcMain.handle',
        'app.enableSandbox',
      ].includes(call),
    );
  if (started.length > 0) problems.push(`it started things anyway: ${started.join(', ')}`);
  if (createdUserData)
    problems.push('it opened the data folder (the back end or the service started)');
  if (!records.some((r) => r.call === 'app.exit')) problems.push('it did not exit');
  if (exitCode !== 0) problems.push(`it exited with ${String(exitCode)}`);
  return problems;
}
