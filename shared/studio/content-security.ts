/**
 * The renderer's Content-Security-Policy, one source for both transports:
 * web mode sends it as a header, Electron's app:// protocol handler too.
 * 'wasm-unsafe-eval' lets tfjs compile its WebAssembly; nothing allows eval
 * or inline scripts. Workers come from our origin (or blob: for vite's
 * module workers).
 */
export function contentSecurityPolicy(connectSources: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "img-src 'self' blob: data:",
    `connect-src 'self' blob: data: ${connectSources.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "media-src 'self' blob: mediastream:",
    "font-src 'self' data:",
    "object-src 'none'",
    "frame-src 'self' https: http://127.0.0.1:* http://localhost:*",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Headers that go with every renderer response. */
export function securityHeaders(connectSources: readonly string[]): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(connectSources),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(self), microphone=(), geolocation=(), usb=(), serial=()',
    'x-frame-options': 'DENY',
  };
}
