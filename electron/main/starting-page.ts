/**
 * The page the window shows while the back end starts, or when it could not
 * start: a data: URL, so it needs neither the back end nor the app://
 * handler. It runs no script; its CSP allows only its own inline style.
 */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function statusPageUrl(page: { title: string; message: string; failed?: boolean }): string {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(page.title)}</title>
<style>
  html,body{height:100%;margin:0}
  body{display:flex;align-items:center;justify-content:center;font:15px system-ui,sans-serif;
    background:#16181d;color:#e8e8ea}
  main{max-width:36em;padding:2em;text-align:center}
  h1{font-size:1.3em;font-weight:600;margin:0 0 .6em}
  p{margin:0;line-height:1.5;color:${page.failed ? '#ffb4a8' : '#b8bcc6'};white-space:pre-wrap}
  .spin{width:28px;height:28px;margin:0 auto 1.2em;border:3px solid #3a3f4b;border-top-color:#8fb3ff;
    border-radius:50%;animation:s 1s linear infinite}
  @keyframes s{to{transform:rotate(360deg)}}
</style></head>
<body><main>${page.failed ? '' : '<div class="spin" role="progressbar" aria-label="Starting"></div>'}
<h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p></main></body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

export const STARTING_PAGE = statusPageUrl({
  title: 'Avatar Studio is starting…',
  message: 'Opening your library and starting the local Avatar API.',
});
