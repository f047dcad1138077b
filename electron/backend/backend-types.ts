import type { KioskLaunch } from './kiosk/kiosk-feature.js';
import type { ApiTarget, StudioHandler } from '../../shared/studio/index.js';

/** What the OS offers that only the Electron shell can do; web mode answers `false`. */
export interface DesktopIntegration {
  /** Shows a file or folder in the OS file manager. */
  reveal(path: string): Promise<boolean>;
  /** Kiosk mode: leaves (false) the fullscreen kiosk window. */
  setKiosk?(on: boolean): void;
  /** Kiosk mode: starts the app with the operating system's login. */
  setStartAtLogin?(on: boolean): void;
  /** The OS folder dialog; null when the user cancelled. */
  chooseFolder?(): Promise<string | null>;
}

export interface StudioBackendOptions {
  /** The studio's own data: its database, and the embedded service's data directory. */
  dataDir: string;
  /** Where exports, renders and photos are saved; defaults to `<dataDir>/library`. */
  libraryDir?: string;
  /** Read for AVATAR_API_TOKEN and friends; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  desktop?: DesktopIntegration;
  /** Kiosk mode for this launch (`--kiosk`, `--kiosk-idle-seconds`). */
  kiosk?: KioskLaunch;
  /** Overrides the stored API choice for this process only (the batch CLI's `--api`). */
  api?: ApiTarget;
}

/** The studio back end: the contract's handler, and its shutdown. */
export interface StudioBackend extends StudioHandler {
  close(): Promise<void>;
}
