import { expect, test, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { QRCode } from 'jsqr';
import sharp from 'sharp';
import type { CommandInput, CommandName, CommandOutput } from '../shared/studio/index.js';
import { SCREENSHOTS } from './paths.js';
import { embeddedServiceToken } from './service-token.js';
import { startWebServer, type WebServer } from './web-server.js';

interface ValidationReport {
  issues: { numErrors: number; messages: { code: string; message: string }[] };
}
// The validator ships no typings; this is the one call the test makes.
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array): Promise<ValidationReport>;
};

// jsqr is CommonJS: its function is the module itself.
const jsQR = createRequire(import.meta.url)('jsqr') as (
  data: Uint8ClampedArray,
  width: number,
  height: number,
) => QRCode | null;

const IDLE_SECONDS = 8;

// A portrait touch screen, as booths have.
test.use({ viewport: { width: 1080, height: 1920 }, hasTouch: true });
test.describe.configure({ mode: 'serial' });

let booth: WebServer;
test.beforeAll(async () => {
  booth = await startWebServer(90_000, ['--kiosk', '--kiosk-idle-seconds', String(IDLE_SECONDS)]);
});
test.afterAll(async () => {
  await booth?.stop();
});

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `kiosk-${name}.png`) });
}

/** A command through the page's own bridge (the key stays in the page). */
async function invoke<K extends CommandName>(
  page: Page,
  name: K,
  input: CommandInput<K>,
): Promise<CommandOutput<K>> {
  // A string, so that the test's Node typings need no DOM: it runs in the page.
  const result = (await page.evaluate(
    `window.studio.invoke(${JSON.stringify(name)}, ${JSON.stringify(input)})`,
  )) as { ok: boolean; value?: unknown };
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
  return result.value as CommandOutput<K>;
}

/** Every visible button is a touch target of at least 48 × 48 px. */
async function expectTouchTargets(page: Page): Promise<void> {
  const small = await page.getByRole('button').evaluateAll((buttons) =>
    buttons
      .map((b) => ({ name: b.textContent?.trim() ?? '', box: b.getBoundingClientRect() }))
      .filter((b) => b.box.width > 0 && (b.box.width < 48 || b.box.height < 48))
      .map((b) => `${b.name} ${Math.round(b.box.width)}×${Math.round(b.box.height)}`),
  );
  expect(small, 'buttons under 48 px').toEqual([]);
}

async function openBooth(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(booth.url);
  await expect(page.getByRole('button', { name: 'Touch to start' })).toBeVisible();
  // No studio navigation anywhere in kiosk mode.
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  return errors;
}

/**
 * A visitor still at the booth: a key press (it touches no control) every 2 s marks
 * activity, as touches do, until stopped.
 */
function stayAtBooth(page: Page): { stop(): void } {
  const beat = setInterval(() => void page.keyboard.press('Shift').catch(() => undefined), 2000);
  return { stop: () => clearInterval(beat) };
}

/** What the embedded service says about a user: 200 while it exists. */
async function serviceUserStatus(page: Page, userId: string): Promise<number> {
  const health = await invoke(page, 'health.get', {});
  const res = await fetch(`${health.service.baseUrl}/api/v1/users/${userId}/avatars`, {
    headers: { authorization: `Bearer ${embeddedServiceToken(booth.dataDir)}` },
  });
  return res.status;
}

test('"No thanks" creates nothing, and every screen switches language', async ({ page }) => {
  const errors = await openBooth(page);
  await expectTouchTargets(page);
  await shot(page, '01-attract');
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await expect(page.getByRole('button', { name: 'Zum Starten berühren' })).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByRole('button', { name: 'Touch to start' }).click();
  await expect(page.getByRole('heading', { name: 'Before we start' })).toBeVisible();
  await expect(page.getByText(/Consent text version 1/)).toBeVisible();
  await page.getByRole('button', { name: 'Français' }).click();
  await expect(page.getByRole('button', { name: 'Non merci' })).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();
  await expectTouchTargets(page);
  await shot(page, '02-consent');
  await page.getByRole('button', { name: 'No thanks' }).click();
  await expect(page.getByRole('button', { name: 'Touch to start' })).toBeVisible();
  expect(await invoke(page, 'people.list', {})).toEqual([]);
  expect(errors).toEqual([]);
});

test('idle on the consent screen asks, then returns to attract', async ({ page }) => {
  await openBooth(page);
  await page.getByRole('button', { name: 'Touch to start' }).click();
  await expect(page.getByRole('heading', { name: 'Before we start' })).toBeVisible();
  const prompt = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await expect(prompt).toBeVisible({ timeout: (IDLE_SECONDS + 5) * 1000 });
  await expect(prompt).toContainText(/\d+ s/);
  await shot(page, '03-still-there');
  await expect(page.getByRole('button', { name: 'Touch to start' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(prompt).toHaveCount(0);
  expect(await invoke(page, 'people.list', {})).toEqual([]);
});

test('attract → consent → capture → result; the QR link gives a valid GLB; Done deletes it all', async ({
  page,
}) => {
  test.setTimeout(420_000);
  const errors = await openBooth(page);
  // Every step by touch, as at a booth.
  await page.getByRole('button', { name: 'Touch to start' }).tap();
  await page.getByRole('button', { name: 'I agree' }).tap();
  await expect(page.getByRole('heading', { name: 'Photo 1 of 3' })).toBeVisible();
  const [person] = await invoke(page, 'people.list', {});
  expect(person?.avatars).toEqual([]);
  expect(await serviceUserStatus(page, person!.userId)).toBe(200);

  // The default countdown is a big 3-2-1.
  const countdown = page.getByRole('timer');
  await expect(countdown).toHaveText('3', { timeout: 60_000 });
  await shot(page, '04-countdown');
  // The fake webcam's head turns: guidance and the countdown take all three shots,
  // the countdown waiting whenever the head leaves the pose.
  await expect(page.getByRole('img', { name: 'Photo 1', exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await shot(page, '04-capture');
  await expectTouchTargets(page);
  const go = page.getByRole('button', { name: 'Make my avatar' });
  await expect(go).toBeVisible({ timeout: 120_000 });
  // Each shot can be taken again.
  for (const n of [1, 2, 3])
    await expect(page.getByRole('button', { name: `Retake photo ${n}` })).toBeVisible();
  await shot(page, '05-review');
  // The review also goes on by itself after a few seconds.
  await go.tap({ timeout: 3000 }).catch(() => undefined);
  await expect(page.getByRole('heading', { name: 'Making your avatar…' })).toBeVisible();
  await shot(page, '06-processing');
  const qr = page.getByRole('img', { name: /QR/ });
  const failed = page.getByRole('heading', { name: 'That did not work' });
  await expect(qr.or(failed)).toBeVisible({ timeout: 180_000 });
  if (await failed.isVisible()) {
    const [visitor] = await invoke(page, 'people.list', {});
    throw new Error(`The avatar failed: ${JSON.stringify(visitor?.avatars)}`);
  }
  // The visitor stays at the booth while their phone reads the code: the checks below
  // take longer than the idle reset on a loaded machine, so keep touching the screen.
  const present = stayAtBooth(page);
  await expect(page.getByRole('img', { name: 'Your avatar from four sides' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your avatar in 3D' })).toBeVisible();
  await expectTouchTargets(page);
  await shot(page, '07-result');

  // Decode the QR code as a phone would: from the pixels on screen.
  const { data, info } = await sharp(await qr.screenshot())
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  expect(code, 'the QR code decodes').not.toBeNull();
  const link = code!.data;
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/d\/[A-Za-z0-9_-]{43}\/$/);
  // The delivery server is not the studio: another port, no bridge.
  expect(new URL(link).port).not.toBe(new URL(booth.url).port);
  expect((await fetch(new URL('/bridge/commands/people.list', link))).status).toBe(404);

  const pageRes = await fetch(link);
  expect(pageRes.status).toBe(200);
  const html = await pageRes.text();
  const glbHref = /href="([^"]+\.glb)"/.exec(html)?.[1];
  expect(glbHref).toBeDefined();
  const glb = new Uint8Array(await (await fetch(new URL(glbHref!, link))).arrayBuffer());
  expect(Buffer.from(glb.subarray(0, 4)).toString('latin1')).toBe('glTF');

  // Done before the (slow) validation: the result screen's idle reset is only 8 + 10 s.
  present.stop();
  await page.getByRole('button', { name: 'Done' }).tap();
  await expect(page.getByRole('button', { name: 'Touch to start' })).toBeVisible();
  await expect.poll(() => serviceUserStatus(page, person!.userId)).toBe(404);
  expect(await invoke(page, 'people.list', {})).toEqual([]);
  expect((await fetch(link)).status).toBe(404);
  expect((await fetch(new URL(glbHref!, link))).status).toBe(404);
  const report = await validator.validateBytes(glb);
  expect(report.issues.numErrors, JSON.stringify(report.issues.messages.slice(0, 5))).toBe(0);
  expect(errors).toEqual([]);
});

test('the page loaded anew mid-visit (after a renderer crash) comes back on attract and deletes the visitor', async ({
  page,
}) => {
  await openBooth(page);
  await page.getByRole('button', { name: 'Touch to start' }).tap();
  await page.getByRole('button', { name: 'I agree' }).tap();
  await expect(page.getByRole('heading', { name: 'Photo 1 of 3' })).toBeVisible();
  const [person] = await invoke(page, 'people.list', {});
  // The page loaded anew, as Electron's crash recovery does (web mode's key
  // is not kept in the address bar, so the booth's URL is opened again).
  await page.goto(booth.url);
  await expect(page.getByRole('button', { name: 'Touch to start' })).toBeVisible();
  await expect.poll(() => invoke(page, 'people.list', {})).toEqual([]);
  expect(await serviceUserStatus(page, person!.userId)).toBe(404);
});

/** Holds a finger on the screen at (x, y), as a touch screen reports it. */
async function longPress(page: Page, x: number, y: number, ms: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  await page.waitForTimeout(ms);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('the operator: long-press a corner, a wrong PIN, then the right one', async ({ page }) => {
  await openBooth(page);
  // Hold the top-left corner for the default 3 s, with a finger.
  await longPress(page, 10, 10, 3300);
  const pad = page.getByRole('dialog', { name: 'Operator PIN' });
  await expect(pad).toBeVisible();
  await expectTouchTargets(page);
  // The operator's screens speak every language the booth offers.
  await pad.getByRole('button', { name: 'Deutsch' }).tap();
  const padDe = page.getByRole('dialog', { name: 'Betreiber-PIN' });
  await expect(padDe.getByRole('button', { name: 'Abbrechen' })).toBeVisible();
  await padDe.getByRole('button', { name: 'English' }).tap();
  for (const digit of '0000') await pad.getByRole('button', { name: digit, exact: true }).tap();
  await pad.getByRole('button', { name: 'OK' }).tap();
  await expect(pad.getByRole('alert')).toHaveText('Wrong PIN. 4 tries left.');
  await shot(page, '08-wrong-pin');
  for (const digit of '1234') await pad.getByRole('button', { name: digit, exact: true }).tap();
  await pad.getByRole('button', { name: 'OK' }).tap();
  const menu = page.getByRole('dialog', { name: 'Operator menu' });
  await expect(menu).toBeVisible();
  await expect(menu).toContainText(/Visitors\s*2/);
  await expect(menu).toContainText(/Deletions\s*2/);
  await menu.getByRole('button', { name: 'Français' }).tap();
  const menuFr = page.getByRole('dialog', { name: 'Menu opérateur' });
  await expect(menuFr).toContainText(/Visiteurs\s*2/);
  await expect(menuFr.getByText('Quitter le mode kiosque')).toBeVisible();
  await menuFr.getByRole('button', { name: 'English' }).tap();
  await shot(page, '09-admin');
  await menu.getByRole('button', { name: 'Back to the booth' }).tap();
  await expect(page.getByRole('button', { name: 'Touch to start' })).toBeVisible();
});
