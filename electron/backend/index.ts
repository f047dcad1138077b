/** The studio back end's public entry: the transports (Electron IPC, web mode) use only this. */
export { createStudioBackend } from './backend.js';
export type { DesktopIntegration, StudioBackend, StudioBackendOptions } from './studio-backend.js';
export { KeychainUnavailableError } from './vault.js';
