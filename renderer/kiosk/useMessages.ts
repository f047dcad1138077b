import { useCallback } from 'react';
import { message, type MessageKey } from './messages.js';
import { useKiosk } from './kiosk-store.js';

/** `t(key, vars)` in the visitor's current language. */
export function useMessages() {
  const language = useKiosk((s) => s.language);
  return useCallback(
    (key: MessageKey, vars?: Record<string, string | number>) => message(language, key, vars),
    [language],
  );
}
