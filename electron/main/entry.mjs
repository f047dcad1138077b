// Electron's entry point. The main process runs the TypeScript sources through
// tsx, as `npm run service` does, so the local service's worker threads find
// their modules; only the sandboxed preload and the UI are bundled.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
