import { defineConfig } from '@playwright/test';
import path from 'node:path';
import { chromiumArgs, E2E_DIR, FAKE_WEBCAM_Y4M, REPO_DIR } from './paths.js';

export default defineConfig({
  testDir: E2E_DIR,
  testMatch: '*.spec.ts',
  outputDir: path.join(REPO_DIR, 'test-results', 'e2e'),
  globalSetup: path.join(E2E_DIR, 'global-setup.ts'),
  timeout: 240_000,
  expect: { timeout: 30_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1360, height: 900 },
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs(FAKE_WEBCAM_Y4M) },
    permissions: ['camera'],
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    acceptDownloads: false,
  },
});
