/**
 * Kiosk mode's part of the Electron shell: a fullscreen kiosk window
 * without a menu that only the operator's PIN (kiosk.admin.leave) lets go
 * of, and the start at login. The rules live in the back end
 * (electron/backend/kiosk); this file only drives the window.
 */
import { app, Menu, type BrowserWindow } from 'electron';
import type { DesktopIntegration, StudioBackend } from '../backend/index.js';

let kioskOn = false;
let studioMenu: Menu | null = null;

/** Whether the window is a booth now (no dialogs for visitors). */
export const isKioskOn = (): boolean => kioskOn;

/** Locks `window` into kiosk mode, or lets it go. */
function applyKiosk(window: BrowserWindow, on: boolean): void {
  kioskOn = on;
  if (window.isDestroyed()) return;
  window.setKiosk(on);
  window.setFullScreen(on);
  window.setMenuBarVisibility(!on);
  window.setAutoHideMenuBar(on);
  window.setClosable(!on);
  // The studio's menu comes back when the operator leaves kiosk mode.
  if (on) {
    studioMenu = Menu.getApplicationMenu() ?? studioMenu;
    Menu.setApplicationMenu(null);
  } else if (studioMenu) Menu.setApplicationMenu(studioMenu);
}

/** What the back end may ask of the window for kiosk mode. */
export function kioskDesktop(
  window: () => BrowserWindow | null,
): Required<Pick<DesktopIntegration, 'setKiosk' | 'setStartAtLogin'>> {
  return {
    setKiosk: (on) => {
      const w = window();
      if (w) applyKiosk(w, on);
    },
    // The booth comes back in kiosk mode after a power cut.
    setStartAtLogin: (on) => app.setLoginItemSettings({ openAtLogin: on, args: ['--kiosk'] }),
  };
}

/** After the back end started: kiosk mode if it says so; the window cannot be closed while on. */
export async function startKioskWindow(
  window: BrowserWindow,
  backend: StudioBackend,
): Promise<void> {
  window.on('close', (event) => {
    if (kioskOn) event.preventDefault();
  });
  const state = await backend.handle('kiosk.state', {});
  if (state.ok && 'active' in state.value && state.value.active) applyKiosk(window, true);
}
