import type { Protocol } from 'electron';
import { APP_HOST, APP_SCHEME, securityHeaders } from '../../shared/studio/index.js';
import { contentTypeOf, readStatic, resolveStaticPath } from '../web/static-files.js';

/** Must run before the app is ready: app:// behaves like https (secure context, fetch, CSP). */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
    },
  ]);
}

/** Serves the renderer build at app://studio/, with the same CSP as web mode, instead of file://. */
export function serveRenderer(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET')
      return new Response('Not Found', { status: 404 });
    const file = resolveStaticPath(rendererDir, url.pathname);
    const bytes = file ? await readStatic(file) : null;
    if (!file || !bytes) return new Response('Not Found', { status: 404 });
    return new Response(bytes, {
      status: 200,
      headers: { 'content-type': contentTypeOf(file), ...securityHeaders([]) },
    });
  });
}
