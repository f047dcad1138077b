import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { humanAssets } from '../vite.config.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The session page, served by the service under /session/<id> with its files under /session-app/. */
export default defineConfig({
  root: here,
  base: '/session-app/',
  plugins: [react(), humanAssets()],
  worker: { format: 'es' },
  build: {
    outDir: path.resolve(here, '../../dist/session'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
  },
});
