/** The studio back end's public entry: the transports (Electron IPC, web mode) use only this. */
export { createStudioBackend } from './create-backend.js';
export type { DesktopIntegration, StudioBackend, StudioBackendOptions } from './backend-types.js';
export { KeychainUnavailableError } from './vault.js';
