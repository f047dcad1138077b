/**
 * Structured logs: one JSON object per line on stderr, so stdout stays free
 * for the CLI's machine-readable lines. Callers pass ids and counts, never
 * tokens, secrets or photo bytes; `redact` is a second line of defence.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const SECRET_KEYS = /token|secret|authorization|password|^sig$|^key$|^nonce$/i;

export function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEYS.test(k) ? '[redacted]' : v;
  return out;
}

export function createLogger(
  level: LogLevel = (process.env.AVATAR_SERVICE_LOG_LEVEL as LogLevel | undefined) ?? 'info',
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const min = ORDER[level] ?? ORDER.info;
  const emit =
    (lvl: LogLevel) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (ORDER[lvl] < min) return;
      write(
        JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...redact(fields) }) +
          '\n',
      );
    };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
