/** A served file: its name in the link, and where it is. Names come from the studio, never the URL. */
export interface DeliveryFile {
  name: string;
  path: string;
  mimeType: string;
  bytes: number;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/**
 * The visitor's download page: their images shown, every file a download
 * link under `base` (`/d/<token>/`). No
 * script; the page's CSP allows only its own images and inline style.
 */
export function deliveryPage(
  base: string,
  files: readonly DeliveryFile[],
  expiresAt: string,
): string {
  const href = (f: DeliveryFile) => escapeHtml(`${base}${encodeURIComponent(f.name)}`);
  const images = files.filter((f) => f.mimeType.startsWith('image/'));
  const items = files
    .map(
      (f) =>
        `<li><a href="${href(f)}" download="${escapeHtml(f.name)}">${escapeHtml(f.name)}</a> <small>${size(f.bytes)}</small></li>`,
    )
    .join('');
  const pictures = images.map((f) => `<img src="${href(f)}" alt="Your avatar">`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Your avatar</title>
<style>body{font:18px/1.5 system-ui,sans-serif;margin:0 auto;max-width:40rem;padding:1.5rem;color:#0f172a}
img{max-width:100%;border-radius:12px;background:#e2e8f0}a{display:inline-block;padding:.75rem 0;font-weight:600}
small{color:#475569}</style></head>
<body><h1>Your avatar</h1>${pictures}<ul>${items}</ul>
<p><small>This page works until ${escapeHtml(new Date(expiresAt).toUTCString())} at the latest; your files are deleted from the booth after that.</small></p>
</body></html>`;
}
