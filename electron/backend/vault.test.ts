import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeychainUnavailableError, osVault } from './vault.js';

/** Whether a Secret Service answers here (scripts/with-keyring.sh provides one). */
function keychainReachable(): boolean {
  try {
    const probe = osVault({});
    probe.readSecret(`probe-${randomUUID()}`);
    return true;
  } catch {
    return false;
  }
}

const reachable = keychainReachable();
if (!reachable && !process.env.CI)
  process.stderr.write(
    'vault.test.ts: no Secret Service here, so the real-keychain tests are skipped; run `bash scripts/with-keyring.sh npx vitest run` (CI must have one).\n',
  );

describe.skipIf(!reachable && !process.env.CI)('the vault, in the real OS keychain', () => {
  const baseUrl = `https://api.example/${randomUUID()}`;

  it('stores, reads and clears a token per API base URL', () => {
    const vault = osVault({});
    expect(vault.read(baseUrl)).toEqual({ token: null, source: 'none' });
    vault.write(baseUrl, 'tok-one');
    vault.write(`${baseUrl}/other`, 'tok-two');
    expect(vault.read(baseUrl)).toEqual({ token: 'tok-one', source: 'keychain' });
    expect(vault.read(`${baseUrl}/other`).token).toBe('tok-two');
    // A fresh instance reads what the OS kept: nothing lives in our memory or files.
    expect(osVault({}).read(baseUrl).token).toBe('tok-one');
    vault.clear(baseUrl);
    vault.clear(`${baseUrl}/other`);
    expect(vault.read(baseUrl).token).toBeNull();
  });

  it('lets AVATAR_API_TOKEN override the keychain for AVATAR_API_BASE_URL only', () => {
    const vault = osVault({ AVATAR_API_TOKEN: 'from-env', AVATAR_API_BASE_URL: `${baseUrl}/` });
    expect(vault.read(baseUrl)).toEqual({ token: 'from-env', source: 'environment' });
    expect(vault.read('https://elsewhere.example').token).not.toBe('from-env');
    expect(osVault({ AVATAR_API_TOKEN: 'from-env' }).read(baseUrl).token).not.toBe('from-env');
  });

  it('keeps secrets beside tokens', () => {
    const vault = osVault({});
    const name = `webhook:${baseUrl}`;
    vault.writeSecret(name, 'whsec_x');
    expect(vault.readSecret(name)).toBe('whsec_x');
    vault.writeSecret(name, null);
    expect(vault.readSecret(name)).toBeNull();
  });
});

describe('without a keychain', () => {
  it('fails with a message that says how to fix it, and writes no file', () => {
    // A child process with no reachable D-Bus session: the Secret Service cannot answer.
    const script = `
      import { osVault } from ${JSON.stringify(path.join(import.meta.dirname, 'vault.ts'))};
      try { osVault({}).write('https://api.example', 't'); console.log('stored'); }
      catch (e) { console.log(e.name + ': ' + e.message); }
    `;
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
          XDG_DATA_HOME: '/nonexistent',
          DISPLAY: '',
        },
        encoding: 'utf8',
      },
    );
    expect(out).toContain(KeychainUnavailableError.name);
    expect(out).toMatch(/gnome-keyring/);
    expect(out).toMatch(/AVATAR_API_TOKEN/);
  });
});
