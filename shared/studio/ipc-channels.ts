/** The two Electron IPC channels of the studio contract. */
export const IPC_INVOKE_CHANNEL = 'studio:invoke';
export const IPC_EVENT_CHANNEL = 'studio:event';
/** The renderer's origin in Electron: a custom protocol, never file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'studio';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
