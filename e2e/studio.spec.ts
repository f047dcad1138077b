import { expect, test, type Locator, type Page } from '@playwright/test';
import { access, mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { FIXTURES, SCREENSHOTS } from './paths.js';
import { embeddedServiceToken } from './service-token.js';

interface ValidationReport {
  issues: { numErrors: number; messages: { code: string; message: string; severity: number }[] };
}
// The validator ships no typings; this is the one call the tests make.
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array): Promise<ValidationReport>;
};

function studioUrl(): string {
  const url = process.env.STUDIO_URL;
  if (!url) throw new Error('STUDIO_URL is not set: global setup did not start web mode.');
  return url;
}

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  // Full-page shots draw the sticky header where the page was scrolled to: start at the top.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Everything the page receives from the back end: bridge answers, pushed events, served files. */
function recordTraffic(page: Page): string[] {
  const seen: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => seen.push(String(f.payload))));
  page.on('response', (response) => {
    void response.body().then(
      (body) => seen.push(body.toString('latin1')),
      () => undefined, // Redirects and aborted requests have no body.
    );
  });
  return seen;
}

/** The embedded service's token of this run's studio. */
function embeddedToken(): string {
  const dataDir = process.env.STUDIO_DATA_DIR;
  if (!dataDir) throw new Error('STUDIO_DATA_DIR is not set: global setup did not start web mode.');
  return embeddedServiceToken(dataDir);
}

/** Opens the app; answers the page errors and CSP violations seen so far (checked at the end). */
async function open(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to|CSP violation/.test(m.text())) errors.push(m.text());
  });
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.sourceFile + ':' + e.lineNumber))",
  );
  await page.goto(studioUrl());
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  // The key leaves the address bar at once.
  expect(new URL(page.url()).searchParams.has('key')).toBe(false);
  return errors;
}

/** A main navigation entry (other buttons, such as "Open library folder", share words with them). */
function nav(page: Page, name: 'Capture' | 'Library' | 'Settings'): Locator {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
}

/** The avatar's live region; its text ends with "ready" or "failed" when processing is over. */
function avatarStatus(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: /(ready|failed)$/ });
}

/** Where a saved file's path is announced by the editor. */
async function savedPath(page: Page, ext: 'glb' | 'png'): Promise<string> {
  const pattern = new RegExp(`(/[^\\s"“”'<>]+\\.${ext})`);
  const region = page.getByRole('status').filter({ hasText: pattern });
  await expect(region.first()).toBeVisible({ timeout: 120_000 });
  const text = (await region.first().textContent()) ?? '';
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`No .${ext} path in "${text}"`);
  return match[1];
}

/** Moves a slider (native range or ARIA slider) a few steps with the keyboard. */
async function nudge(slider: Locator, steps = 4): Promise<void> {
  await slider.focus();
  for (let i = 0; i < steps; i++) await slider.press('ArrowRight');
}

/** Picks another value in a select or radio group labelled `label`. */
async function pickOther(page: Page, label: string): Promise<void> {
  const byLabel = page.getByLabel(label, { exact: true });
  const select = page.getByRole('combobox', { name: label, exact: true });
  if ((await select.count()) > 0) {
    const current = await select.inputValue();
    const values = await select
      .getByRole('option')
      .evaluateAll((options) => options.map((o) => o.getAttribute('value') ?? ''));
    const other = values.find((v) => v !== current && v !== '');
    if (!other) throw new Error(`${label} offers no other choice`);
    await select.selectOption(other);
    return;
  }
  const group = page.getByRole('radiogroup', { name: label, exact: true });
  if ((await group.count()) > 0) {
    const radios = group.getByRole('radio');
    const n = await radios.count();
    // Prefer a real choice over emptying the slot.
    for (let i = 0; i < n; i++) {
      const radio = radios.nth(i);
      if (
        !(await radio.isChecked()) &&
        (await radio.evaluate((el) => el.closest('label')?.textContent?.trim())) !== 'None'
      ) {
        await radio.check();
        return;
      }
    }
  }
  await byLabel.first().click();
}

test('guided capture from the webcam, upload, ready, edit, export and render', async ({ page }) => {
  const traffic = recordTraffic(page);
  const errors = await open(page);
  await shot(page, '01-capture-start');

  await page.getByRole('button', { name: 'New avatar' }).click();
  await expect(page.getByRole('radiogroup', { name: 'Body type' })).toBeVisible();
  await page.getByRole('radio', { name: 'Male', exact: true }).check();

  // 1. Guidance and auto-capture take all three shots from the fake webcam (a head that turns).
  await expect(page.getByRole('img', { name: 'Frontal photo' })).toBeVisible({ timeout: 60_000 });
  await shot(page, '02-capture-frontal-taken');
  await expect(page.getByRole('img', { name: 'Side photo 1' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('img', { name: 'Side photo 2' })).toBeVisible({ timeout: 60_000 });
  await shot(page, '03-capture-all-taken');

  // 2. Upload.
  await page.getByRole('button', { name: 'Create avatar' }).click();
  await shot(page, '04a-capture-uploading');
  // 3. The avatar becomes ready.
  await expect(avatarStatus(page)).toHaveText(/ready$/, { timeout: 180_000 });
  await shot(page, '04-capture-ready');

  // 4. The editor: body, a bone scale and an asset.
  await page.getByRole('button', { name: 'Open in editor' }).click();
  const exportButton = page.getByRole('button', { name: 'Export GLB' });
  await expect(exportButton).toBeVisible({ timeout: 60_000 });
  await page.waitForTimeout(1500);
  const preview = page.getByRole('region', { name: 'Avatar editor' });
  const before = await preview.screenshot();
  await shot(page, '05-editor-open');

  // Every customization field has its control, named exactly as the spec's field in plain words.
  for (const name of ['Body', 'Age', 'Eye colour'])
    await expect(page.getByRole('combobox', { name, exact: true })).toBeVisible();
  for (const name of ['Head scale', 'Arms scale', 'Chest scale', 'Skin tone'])
    await expect(page.getByRole('slider', { name, exact: true })).toBeVisible();
  for (const name of ['Clothing', 'Hair', 'Eyewear', 'Footwear'])
    await expect(page.getByRole('radiogroup', { name, exact: true })).toBeVisible();

  await pickOther(page, 'Body');
  await nudge(page.getByRole('slider', { name: 'Head scale', exact: true }));
  await pickOther(page, 'Clothing');

  // 5. The preview updates.
  await expect
    .poll(async () => Buffer.compare(before, await preview.screenshot()) !== 0, { timeout: 30_000 })
    .toBe(true);
  await shot(page, '06-editor-changed');

  // 6. Export GLB: the file exists and is a valid glTF binary.
  await exportButton.click();
  const glbPath = await savedPath(page, 'glb');
  const glb = await readFile(glbPath);
  expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF');
  const report = await validator.validateBytes(new Uint8Array(glb));
  expect(report.issues.numErrors, JSON.stringify(report.issues.messages.slice(0, 5))).toBe(0);

  // 7. Render a PNG with transparency.
  const format = page.getByRole('combobox', { name: 'Format' });
  if ((await format.count()) > 0) await format.selectOption('png');
  await page.getByRole('button', { name: 'Render image' }).click();
  const pngPath = await savedPath(page, 'png');
  await access(pngPath);
  const meta = await sharp(pngPath).metadata();
  expect(meta.format).toBe('png');
  expect(meta.hasAlpha).toBe(true);
  await shot(page, '07-editor-saved');
  expect(errors, 'page errors or CSP violations').toEqual([]);

  // The token never reached the page: not in an answer, an event or a served file.
  const token = embeddedToken();
  expect(token.length).toBeGreaterThan(16);
  expect(traffic.length).toBeGreaterThan(20);
  expect(traffic.filter((text) => text.includes(token))).toEqual([]);
  expect(await page.content()).not.toContain(token);
});

test('imported bad photos fail with the reason and a retake of the photo at fault', async ({
  page,
}) => {
  const errors = await open(page);
  await page.getByRole('button', { name: 'New avatar' }).click();
  // Import instead of the camera: switch auto-capture off so the webcam does not interfere.
  await page.getByRole('checkbox', { name: 'Take automatically' }).uncheck();
  await page
    .getByLabel('Import frontal photo')
    .setInputFiles(path.join(FIXTURES, 'photos/bad/no-face.jpg'));
  await page
    .getByLabel('Import side photo 1')
    .setInputFiles(path.join(FIXTURES, 'photos/person-a/side-1.jpg'));
  await page
    .getByLabel('Import side photo 2')
    .setInputFiles(path.join(FIXTURES, 'photos/person-a/side-2.jpg'));
  await expect(page.getByRole('img', { name: 'Side photo 2' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill('Bad Photos');
  await page.getByRole('radio', { name: 'Female', exact: true }).check();
  await shot(page, '08-import-bad');

  await page.getByRole('button', { name: 'Create avatar' }).click();
  await expect(avatarStatus(page)).toHaveText(/failed$/, { timeout: 180_000 });
  const reason = page.getByRole('alert');
  await expect(reason).toContainText(/\w+/);
  await expect(reason).toContainText(/face|photo/i);
  const retakeFrontal = page.getByRole('button', { name: 'Retake frontal photo' });
  await expect(retakeFrontal).toBeVisible();
  await shot(page, '09-import-failed');

  // One click retakes only the photo at fault; the others stay.
  await retakeFrontal.click();
  await expect(page.getByRole('img', { name: 'Frontal photo' })).toHaveCount(0);
  await expect(page.getByRole('img', { name: 'Side photo 1' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Side photo 2' })).toBeVisible();
  expect(errors, 'page errors or CSP violations').toEqual([]);
});

test('library and settings', async ({ page }) => {
  const errors = await open(page);
  await nav(page, 'Library').click();
  await expect(page.getByRole('heading', { name: 'Library' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Bad Photos' })).toBeVisible();
  await page.getByRole('button', { name: 'Open library folder' }).click();
  await shot(page, '10-library');

  await page.getByRole('button', { name: 'Delete Bad Photos', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Bad Photos?' });
  await expect(dialog).toContainText('on the avatar service too');
  await shot(page, '11-library-delete-dialog');
  await dialog.getByRole('button', { name: 'Delete person' }).click();
  await expect(page.getByRole('heading', { name: 'Bad Photos' })).toHaveCount(0);

  await nav(page, 'Settings').click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'API service' })).toBeVisible();
  await expect(page.getByLabel('Project token', { exact: true })).toHaveValue('');
  await expect(page.getByRole('region', { name: 'API service' })).toContainText(
    /A token is set|No token/,
  );
  await expect(page.getByLabel('Listener port', { exact: true })).toBeVisible();
  await shot(page, '12-settings');

  // A token the back end refuses (the embedded service keeps its own) stays in the field.
  const tokenField = page.getByLabel('Project token', { exact: true });
  await tokenField.fill('not-for-the-embedded-service');
  await page.getByRole('button', { name: 'Save token' }).click();
  await expect(page.getByRole('region', { name: 'API service' })).toContainText(
    'The embedded service manages its own token',
  );
  await expect(tokenField).toHaveValue('not-for-the-embedded-service');
  expect(errors, 'page errors or CSP violations').toEqual([]);
});
