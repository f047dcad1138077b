import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Points the service at a stand-in session-page bundle, so service tests do
 * not depend on `npm run build:session` having run. Import before starting the service.
 */
const bundle = mkdtempSync(path.join(os.tmpdir(), 'session-app-'));
writeFileSync(path.join(bundle, 'index.html'), '<!doctype html><title>Avatar</title>');
process.env.AVATAR_SESSION_APP_DIR = bundle;
