/**
 * Web mode's bridge, the second transport of the studio contract. The
 * server is `electron/web`, the client is the renderer's web transport.
 *
 * - `GET /?key=K` serves the renderer; its static files need no key, they
 *   hold no data.
 * - `POST /bridge/commands/<name>` with header `x-studio-key: K`, a body of
 *   `encodeWire(input)`, answers 200 with `encodeWire(CommandResult)`.
 * - A WebSocket at `/bridge/events?key=K` pushes `encodeWire(StudioEvent)`
 *   messages (browsers cannot set headers on a WebSocket).
 * - Every bridge request needs the per-launch key, a Host of
 *   127.0.0.1:PORT or localhost:PORT, and no Origin or our own origin.
 */
export const KEY_HEADER = 'x-studio-key';
export const KEY_QUERY = 'key';
export const COMMAND_PATH_PREFIX = '/bridge/commands/';
export const EVENTS_PATH = '/bridge/events';
/** Largest command body: three photos of 25 MiB each, base64 encoded, with room to spare. */
export const MAX_COMMAND_BYTES = 110 * 1024 * 1024;
