const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f4f5f7;color:#1d2330}
main{background:#fff;border-radius:12px;padding:32px 40px;max-width:560px;box-shadow:0 2px 12px #0001}
h1{font-size:1.4rem;margin:0 0 12px}dt{font-weight:600}dd{margin:0 0 8px}
.expired h1{color:#a33}
</style></head><body>${body}</body></html>`;
}

export const expiredSessionPage = (): string =>
  page(
    'Session expired',
    '<main class="expired"><h1>This session link has expired</h1><p>Session links are short-lived. Ask the application for a new one.</p></main>',
  );

export const unknownSessionPage = (): string =>
  page('Session not found', '<main class="expired"><h1>This session link is not valid</h1></main>');

export const notBuiltPage = (): string =>
  page(
    'Session page unavailable',
    '<main class="expired"><h1>The session page is not built</h1><p>Run <code>npm run build:session</code> and restart the service.</p></main>',
  );
