import type { z } from 'zod';
import type { Logger } from '../../service/index.js';
import type {
  COMMANDS,
  CommandName,
  CommandOutput,
  StudioEvent,
} from '../../shared/studio/index.js';
import type { ApiLink } from './api-link.js';
import type { AvatarSync } from './avatar-sync.js';
import type { DesktopIntegration } from './backend-types.js';
import type { Library } from './library.js';
import type { SettingsStore } from './settings.js';
import type { StudioRecords } from './studio-records.js';
import type { Vault } from './vault.js';

/** What every handler module works with; built once by `createStudioBackend`. */
export interface BackendContext {
  log: Logger;
  records: StudioRecords;
  settings: SettingsStore;
  library: Library;
  libraryRoot(): string;
  vault: Vault;
  link: ApiLink;
  sync: AvatarSync;
  desktop: DesktopIntegration | undefined;
  emit(event: StudioEvent): void;
  /** Rewrites an avatar's `metadata.json` in the library from the records. */
  writeMetadata(avatarId: string): void;
}

/** Handlers get the input after the contract parsed it: defaults filled, strings trimmed. */
export type ParsedInput<K extends CommandName> = z.output<(typeof COMMANDS)[K]['input']>;
export type Handler<K extends CommandName> = (input: ParsedInput<K>) => Promise<CommandOutput<K>>;
export type Handlers = { [K in CommandName]: Handler<K> };
/** A handler module answers a slice of the contract. */
export type HandlerSlice<K extends CommandName> = { [P in K]: Handler<P> };
