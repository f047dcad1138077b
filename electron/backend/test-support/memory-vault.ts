import type { Vault } from '../vault.js';

/** A vault that forgets on exit, for tests that are not about the keychain itself. */
export function memoryVault(): Vault & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    read: (baseUrl) => {
      const token = entries.get(`token:${baseUrl}`) ?? null;
      return { token, source: token ? 'keychain' : 'none' };
    },
    write: (baseUrl, token) => void entries.set(`token:${baseUrl}`, token),
    clear: (baseUrl) => void entries.delete(`token:${baseUrl}`),
    readSecret: (name) => entries.get(`secret:${name}`) ?? null,
    writeSecret: (name, value) =>
      value === null
        ? void entries.delete(`secret:${name}`)
        : void entries.set(`secret:${name}`, value),
  };
}
