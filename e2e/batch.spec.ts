import { expect, test } from '@playwright/test';
import { copyFile, mkdir, mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES } from './paths.js';

function studioUrl(): string {
  const url = process.env.STUDIO_URL;
  if (!url) throw new Error('STUDIO_URL is not set: global setup did not start web mode.');
  return url;
}

async function person(root: string, name: string, source: string, files: string[]) {
  await mkdir(path.join(root, name), { recursive: true });
  for (const f of files)
    await copyFile(path.join(FIXTURES, 'photos', source, f), path.join(root, name, f));
}

test('Batch screen: preview with problems, start, pause, resume after a reload, report', async ({
  page,
}) => {
  const work = await mkdtemp(path.join(os.tmpdir(), 'batch-e2e-'));
  const input = path.join(work, 'team');
  const out = path.join(work, 'out');
  const all = ['frontal.jpg', 'side-1.jpg', 'side-2.jpg'];
  await person(input, 'alice', 'person-a', all);
  await person(input, 'bruno', 'person-b', all);
  await person(input, 'dave', 'person-c', ['frontal.jpg', 'side-1.jpg']);

  await page.goto(studioUrl());
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Batch' })
    .click();
  await expect(page.getByRole('heading', { name: 'Batch', level: 1 })).toBeVisible();

  await page.getByLabel('Folder or manifest').fill(input);
  await page.getByLabel('Output folder').fill(out);
  await page.getByLabel('Default body type').selectOption('male');
  await page.getByLabel('People at once').fill('1');
  await page.getByRole('button', { name: 'Preview' }).click();

  const found = page.getByRole('table', { name: 'People found' });
  await expect(
    page.getByRole('heading', { name: '3 people found, 1 with problems' }),
  ).toBeVisible();
  await expect(found.getByRole('row', { name: /dave/ })).toContainText('Missing photo: side-2.');
  await expect(found.getByRole('row', { name: /alice/ })).toContainText('OK');

  await page.getByRole('button', { name: 'Start' }).click();
  const state = page.getByTestId('batch-state');
  await expect(state).toHaveText('running');
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(state).toHaveText('paused');

  // After a restart of the page the unfinished batch is offered.
  await page.goto(studioUrl());
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Batch' })
    .click();
  await page.getByRole('button', { name: 'Resume team' }).click();
  await expect(state).toHaveText('finished', { timeout: 180_000 });

  const table = page.getByRole('table', { name: 'People in the batch' });
  await expect(table.getByRole('row', { name: /alice/ })).toContainText('Done');
  await expect(table.getByRole('row', { name: /bruno/ })).toContainText('Done');
  await expect(table.getByRole('row', { name: /dave/ })).toContainText('Invalid');
  await expect(page.getByTestId('batch-counts')).toContainText(
    '3 of 3 finished · 2 succeeded · 0 failed · 1 invalid',
  );
  await expect(page.getByRole('progressbar', { name: 'Batch progress' })).toHaveAttribute(
    'value',
    '3',
  );

  await page.getByRole('button', { name: 'Export report' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Report written to' })).toContainText(
    path.join(out, 'report.csv'),
  );
  const report = (await readFile(path.join(out, 'report.csv'), 'utf8')).trim().split(/\r?\n/);
  expect(report).toHaveLength(4);
  expect(report.find((r) => r.startsWith('dave,'))).toContain('invalid');
  expect((await stat(path.join(out, 'alice', 'avatar.glb'))).size).toBeGreaterThan(1000);

  await page.getByRole('button', { name: 'Open output folder' }).click();
  await expect(page.getByText(`Output folder: ${out}`)).toBeVisible();

  // The people the batch made are in the Library.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Library' })
    .click();
  const group = page.getByRole('region', { name: 'Batch team' });
  await expect(group.getByRole('heading', { name: 'Batch: team' })).toBeVisible();
  await expect(group.getByRole('heading', { name: 'alice' })).toBeVisible();
  await expect(group.getByRole('heading', { name: 'bruno' })).toBeVisible();
});
