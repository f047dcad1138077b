import { describe, expect, it } from 'vitest';
import { parseKioskLaunch } from './kiosk-launch.js';

describe('the desktop app’s kiosk switches', () => {
  it('finds --kiosk among Electron’s own switches', () => {
    expect(parseKioskLaunch(['.', '--no-sandbox', '--enable-logging'], {})).toBeUndefined();
    expect(parseKioskLaunch(['.', '--kiosk', '--enable-logging'], {})).toEqual({ enabled: true });
    expect(
      parseKioskLaunch(['--kiosk', '--kiosk-idle-seconds', '20'], {
        AVATAR_STUDIO_KIOSK_PIN: '9999',
      }),
    ).toEqual({ enabled: true, idleSeconds: 20, pin: '9999' });
  });

  it('still checks its own values', () => {
    expect(() => parseKioskLaunch(['--kiosk', '--kiosk-idle-seconds', '1'], {})).toThrow();
    expect(() => parseKioskLaunch(['--kiosk-idle-seconds', '20'], {})).toThrow();
    expect(() => parseKioskLaunch(['--kiosk'], { AVATAR_STUDIO_KIOSK_PIN: '12' })).toThrow();
  });
});
