/**
 * The application menu, as data: main turns it into a Menu. Packaged builds
 * have no DevTools entry (and no shortcut for it, since Electron's default
 * menu is replaced).
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openLibraryFolder(): void;
  openLogsFolder(): void;
  about(): void;
}

export function appMenuTemplate(options: {
  appName: string;
  packaged: boolean;
  platform: NodeJS.Platform;
  actions: MenuActions;
}): MenuItemConstructorOptions[] {
  const { actions, packaged } = options;
  const mac = options.platform === 'darwin';
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
    ...(packaged ? [] : [{ type: 'separator' } as const, { role: 'toggleDevTools' } as const]),
  ];
  return [
    ...(mac
      ? [
          {
            label: options.appName,
            submenu: [
              { label: `About ${options.appName}`, click: actions.about },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Library Folder', click: actions.openLibraryFolder },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        ...(mac ? [] : [{ label: `About ${options.appName}`, click: actions.about }]),
        { label: 'Open Logs Folder', click: actions.openLogsFolder },
      ],
    },
  ];
}
