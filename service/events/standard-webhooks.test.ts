import { describe, expect, it } from 'vitest';
import { signedHeaders, verifyWebhook } from './standard-webhooks.js';

// The example from the Standard Webhooks specification's test vectors.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TS = 1614265330;
const BODY = '{"test": 2432232314}';

describe('Standard Webhooks signatures', () => {
  it('matches the reference signature', () => {
    expect(signedHeaders(SECRET, ID, TS, BODY)['webhook-signature']).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  const headers = (over: Partial<Record<'id' | 'timestamp' | 'signature', string>> = {}) => {
    const h = signedHeaders(SECRET, ID, TS, BODY);
    return {
      id: h['webhook-id'],
      timestamp: h['webhook-timestamp'],
      signature: h['webhook-signature'],
      ...over,
    };
  };

  it.each([
    ['a valid delivery', headers(), BODY, true],
    [
      'one of several signatures',
      headers({ signature: `v1,AAAA ${headers().signature}` }),
      BODY,
      true,
    ],
    ['a changed body', headers(), BODY.replace('2', '3'), false],
    ['another id', headers({ id: 'msg_other' }), BODY, false],
    ['a changed timestamp', headers({ timestamp: String(TS + 1) }), BODY, false],
    ['no signature', headers({ signature: '' }), BODY, false],
    [
      'another scheme',
      headers({ signature: headers().signature.replace('v1,', 'v2,') }),
      BODY,
      false,
    ],
  ])('%s verifies: %s', (_name, h, body, ok) => {
    expect(verifyWebhook(SECRET, h, body, TS).ok).toBe(ok);
  });

  it('refuses timestamps outside the tolerance, against replays', () => {
    expect(verifyWebhook(SECRET, headers(), BODY, TS + 301).ok).toBe(false);
    expect(verifyWebhook(SECRET, headers(), BODY, TS - 301).ok).toBe(false);
    expect(verifyWebhook(SECRET, headers(), BODY, TS + 299).ok).toBe(true);
  });
});
