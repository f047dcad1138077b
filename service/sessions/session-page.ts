import type { SessionRecord } from './session-repo.js';

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

const PURPOSE: Record<SessionRecord['type'], string> = {
  create_or_edit_existing:
    'Open the avatar dashboard, or start creating an avatar if there is none yet',
  create: 'Create a new avatar',
  edit_existing: 'Edit an existing avatar',
};

export function sessionPage(session: SessionRecord, avatarCount: number): string {
  const avatarLine = session.avatar_id
    ? `<dt>Avatar</dt><dd><code>${escapeHtml(session.avatar_id)}</code></dd>`
    : `<dt>Avatars of this user</dt><dd>${avatarCount}</dd>`;
  return page(
    'Avatar session',
    `<main data-session-type="${escapeHtml(session.type)}"><h1>${escapeHtml(PURPOSE[session.type])}</h1>
<dl><dt>Session</dt><dd><code>${escapeHtml(session.id)}</code></dd>
<dt>Type</dt><dd><code>${escapeHtml(session.type)}</code></dd>${avatarLine}
<dt>Link expires</dt><dd><time datetime="${new Date(session.expires_at).toISOString()}">${new Date(session.expires_at).toUTCString()}</time></dd></dl></main>`,
  );
}

export const expiredSessionPage = (): string =>
  page(
    'Session expired',
    '<main class="expired"><h1>This session link has expired</h1><p>Session links are short-lived. Ask the application for a new one.</p></main>',
  );

export const unknownSessionPage = (): string =>
  page('Session not found', '<main class="expired"><h1>This session link is not valid</h1></main>');
