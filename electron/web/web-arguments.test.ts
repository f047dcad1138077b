import { describe, expect, it } from 'vitest';
import { parseWebArguments } from './web-arguments.js';

const env = { AVATAR_STUDIO_DATA_DIR: '/tmp/studio-args' };

describe('web mode arguments', () => {
  it('starts the studio without kiosk mode by default', () => {
    expect(parseWebArguments([], env).kiosk).toBeUndefined();
  });

  it('takes --kiosk with an idle timeout, and the PIN only from the environment', () => {
    expect(parseWebArguments(['--kiosk'], env).kiosk).toEqual({ enabled: true });
    expect(
      parseWebArguments(['--kiosk', '--kiosk-idle-seconds', '8'], {
        ...env,
        AVATAR_STUDIO_KIOSK_PIN: '2468',
      }).kiosk,
    ).toEqual({ enabled: true, idleSeconds: 8, pin: '2468' });
  });

  it('refuses idle timeouts out of range, without --kiosk, or a PIN that is not digits', () => {
    for (const argv of [
      ['--kiosk', '--kiosk-idle-seconds', '2'],
      ['--kiosk', '--kiosk-idle-seconds', '601'],
      ['--kiosk', '--kiosk-idle-seconds', 'soon'],
      ['--kiosk-idle-seconds', '8'],
      ['--kiosk=yes'],
    ])
      expect(() => parseWebArguments(argv, env), argv.join(' ')).toThrow();
    expect(() =>
      parseWebArguments(['--kiosk'], { ...env, AVATAR_STUDIO_KIOSK_PIN: 'abcd' }),
    ).toThrow();
  });
});
