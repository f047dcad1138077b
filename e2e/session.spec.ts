/**
 * The session page with the real @avaturn/sdk 1.1.4 from npm, in Chromium, on
 * a host page of another origin (a second loopback port).
 */
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  attachReceiver,
  startTestService,
  type Receiver,
  type TestService,
} from '../tests/helpers/service.js';
import { eventually, eventuallyAsync } from '../tests/helpers/receiver.js';
import { personPhotos, upload } from '../tests/helpers/upload.js';
import { validate } from '../service/avatar-model/builder/test-support.js';
import { embeddingRepo } from '../service/sessions/embedding.js';
import { runChecked } from './web-server.js';
import { FIXTURES, REPO_DIR, SCREENSHOTS } from './paths.js';

const SDK = readFileSync(path.join(REPO_DIR, 'node_modules/@avaturn/sdk/dist/index.js'), 'utf8');
const HOST_HTML = `<!doctype html><html><body>
<div id="frame" style="width:1200px;height:800px"></div>
<script type="module">
import { AvaturnSDK } from '/sdk.js';
window.hostEvents = [];
window.startSdk = async (url, disableUi) => {
  const sdk = new AvaturnSDK();
  await sdk.init(document.getElementById('frame'), { url, disableUi });
  for (const name of ['load', 'export', 'assetSet', 'bodySet', 'error'])
    sdk.on(name, (data) => window.hostEvents.push({ name, data }));
  window.sdk = sdk;
  return true;
};
</script></body></html>`;

let svc: TestService;
let receiver: Receiver;
let host: http.Server;
let hostUrl = '';
let user = '';
let avatarId = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (!process.env.E2E_SKIP_BUILD) await runChecked('npm', ['run', '--silent', 'build:session']);
  svc = await startTestService({ processingWorkers: 1, avatarWorkers: 1, now: Date.now });
  receiver = await attachReceiver(svc);
  host = http.createServer((req, res) => {
    const sdk = req.url === '/sdk.js';
    res.writeHead(200, { 'content-type': sdk ? 'text/javascript' : 'text/html' });
    res.end(sdk ? SDK : HOST_HTML);
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
  user = ((await svc.api('POST', '/api/v1/users/new')).body as { id: string }).id;
  const created = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } }))
    .body as { avatar_id: string; upload_url: string };
  avatarId = created.avatar_id;
  await upload(created.upload_url, personPhotos('person-a'), { 'body-type': 'female' });
  await eventuallyAsync(async () => {
    const list = (await svc.api('GET', `/api/v1/users/${user}/avatars`)).body as {
      status: string;
    }[];
    return list[0]?.status === 'ready';
  }, 120_000);
});

test.afterAll(async () => {
  await svc?.stop();
  await receiver?.close();
  host?.close();
});

async function sessionUrl(config: Record<string, unknown>): Promise<{ url: string; id: string }> {
  const res = await svc.api('POST', '/api/v1/sessions/new', { body: { user_id: user, config } });
  expect(res.status).toBe(200);
  return res.body as { url: string; id: string };
}

/** Opens the host page and starts the SDK on the session URL; collects page errors. */
async function openHost(page: Page, url: string, disableUi = false) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/favicon/.test(m.text())) errors.push(m.text());
  });
  await page.goto(hostUrl);
  // Not awaited here: init() never resolves for a page that does not hand shake.
  await page.evaluate(
    ([u, d]) => {
      void (
        globalThis as unknown as { startSdk(u: string, d: boolean): Promise<boolean> }
      ).startSdk(u, d);
    },
    [url, disableUi] as const,
  );
  return errors;
}

const sdkCall = <T>(page: Page, method: string, ...args: unknown[]) =>
  page.evaluate(
    async ([m, a]) => {
      const sdk = (
        globalThis as unknown as { sdk: Record<string, (...x: unknown[]) => Promise<unknown>> }
      ).sdk;
      try {
        return { ok: true, value: await sdk[m as string]!(...(a as unknown[])) };
      } catch (error) {
        return { ok: false, value: error };
      }
    },
    [method, args] as const,
  ) as Promise<{ ok: boolean; value: T }>;

const hostEvents = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { hostEvents: { name: string; data: unknown }[] }).hostEvents,
  );

async function waitForLoad(page: Page) {
  await page.waitForFunction(() => 'sdk' in globalThis, undefined, { timeout: 60_000 });
  await expect
    .poll(async () => (await hostEvents(page)).some((e) => e.name === 'load'), { timeout: 90_000 })
    .toBe(true);
}

/** A picture of the host page with the session page in it, for the gallery and for review. */
async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `session-${name}.png`) });
}

/** Loads pictures on the host page as it would (cross-origin, no credential), as data URLs. */
function loadPictures(page: Page, urls: readonly string[]): Promise<string[]> {
  return page.evaluate<
    string[]
  >(`Promise.all(${JSON.stringify(urls)}.map((url) => new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => {
      try {
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        canvas.getContext('2d').drawImage(img, 0, 0);
        resolve(canvas.toDataURL());
      } catch (e) {
        resolve('failed: ' + e);
      }
    };
    img.onerror = () => resolve('failed: ' + url);
    img.src = url;
  })))`);
}

const previewPixels = (page: Page) => {
  const frame = page.frames().find((f) => f.url().includes('/session/'));
  if (!frame) throw new Error('the session page is not framed');
  return frame.evaluate<string>(`document.querySelector('canvas')?.toDataURL() ?? ''`);
};

/** Whether the 3D preview changes between frames (it does only while a clip plays). */
async function expectPreviewMoving(page: Page, moving: boolean) {
  if (moving) {
    const first = await previewPixels(page);
    await expect.poll(() => previewPixels(page), { timeout: 20_000 }).not.toBe(first);
    return;
  }
  // Standing still: once the last pose has settled, frames many renders apart are identical.
  await expect
    .poll(
      async () => {
        const before = await previewPixels(page);
        await page.waitForTimeout(400);
        return before === (await previewPixels(page));
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

/** The webhook receiver hears an avatar.ready that carries this session's id. */
async function expectReadyEventOf(sessionId: string, timeoutMs: number) {
  const ready = await eventually(
    () =>
      receiver.received.find(
        (r) =>
          r.body.event === 'avatar.ready' &&
          (r.body as { session_id?: string }).session_id === sessionId,
      ),
    timeoutMs,
  );
  expect(ready.body).toMatchObject({ session_id: sessionId });
}

/** Fills the creation flow's three file inputs with a fixture person's photos. */
async function importPhotos(frame: FrameLocator, person: string) {
  const files = {
    frontal: 'frontal.jpg',
    'side photo 1': 'side-1.jpg',
    'side photo 2': 'side-2.jpg',
  };
  for (const [label, file] of Object.entries(files))
    await frame
      .getByLabel(`Import ${label}`)
      .setInputFiles(path.join(FIXTURES, 'photos', person, file));
}

test('edit_existing: handshake, load, set and read back, refusals, export, customization, Next', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { url, id: sessionId } = await sessionUrl({ type: 'edit_existing', avatar_id: avatarId });
  const errors = await openHost(page, url);
  await waitForLoad(page);
  await shot(page, 'editor');

  expect((await sdkCall<{ id: string }>(page, 'getAvatarId')).value).toEqual({ id: avatarId });

  // Assets: list, set, read back.
  const assets = (
    await sdkCall<{ id: string; category: string; preview: string }[]>(page, 'getAssetList')
  ).value;
  expect(assets.length).toBeGreaterThan(3);
  const hair = assets.find((a) => a.category === 'hairAndHeadwear')!;
  const glasses = assets.find((a) => a.category === 'eyewear')!;
  // Every asset's preview is a picture the host page itself can load, each a different one.
  const pictures = await loadPictures(
    page,
    assets.map((a) => a.preview),
  );
  expect(pictures.filter((p) => p.startsWith('failed'))).toEqual([]);
  expect(new Set(pictures).size).toBe(assets.length);
  expect((await sdkCall(page, 'setActiveAsset', hair.id)).ok).toBe(true);
  expect((await sdkCall(page, 'setActiveAsset', glasses.id)).ok).toBe(true);
  const active = (await sdkCall<Record<string, string>>(page, 'getActiveAssets')).value;
  expect(active.hairAndHeadwear).toBe(hair.id);
  expect(active.eyewear).toBe(glasses.id);

  // Bodies.
  const bodies = (
    await sdkCall<{ id: string; gender: string; preview: string }[]>(page, 'getBodyList')
  ).value;
  expect(bodies.map((b) => b.id)).toEqual(['body_0', 'body_1', 'body_2', 'body_3', 'body_4']);
  const bodyPictures = await loadPictures(
    page,
    bodies.map((b) => b.preview),
  );
  expect(bodyPictures.filter((p) => p.startsWith('failed'))).toEqual([]);
  expect(new Set(bodyPictures).size).toBe(bodies.length);
  expect((await sdkCall(page, 'setActiveBody', 'body_3')).ok).toBe(true);
  expect((await sdkCall(page, 'getActiveBody')).value).toEqual({ id: 'body_3' });

  // Colours, proportions, skin tone.
  expect((await sdkCall(page, 'setEyeColor', 'green')).ok).toBe(true);
  expect((await sdkCall(page, 'getEyeColor')).value).toBe('green');
  expect((await sdkCall(page, 'setHairColor', '#aa3311')).ok).toBe(true);
  expect((await sdkCall(page, 'getHairColor')).value).toBe('#aa3311');
  expect((await sdkCall(page, 'setEyewearColor', 'transparent')).ok).toBe(true);
  expect((await sdkCall(page, 'getEyewearColor')).value).toBe('transparent');
  expect((await sdkCall(page, 'setBodyProportions', 'head', 40)).ok).toBe(true);
  expect((await sdkCall(page, 'getBodyProportions')).value).toEqual({
    head: 40,
    arms: 0,
    chest: 0,
  });
  expect((await sdkCall(page, 'setSkinToneCorrection', -25)).ok).toBe(true);
  expect((await sdkCall(page, 'getSkinToneCorrection')).value).toBe(-25);

  // Bad values are refused with {type, message} and change nothing.
  for (const [method, ...args] of [
    ['setBodyProportions', 'head', 500],
    ['setBodyProportions', 'nose', 10],
    ['setSkinToneCorrection', 51],
    ['setSkinToneCorrection', 'dark'],
    ['setHairColor', 'notacolor'],
    ['setEyewearColor', '#12'],
    ['setEyeColor', 'purple'],
    ['setActiveBody', 'body_9'],
    ['setActiveAsset', '00000000-0000-4000-8000-000000000000'],
    ['setActiveAnimation', 'moonwalk'],
  ] as const) {
    const answer = await sdkCall<{ type: string; message: string }>(page, method, ...args);
    expect(answer.ok, `${method}(${args.join(', ')})`).toBe(false);
    expect(answer.value.type).toEqual(expect.any(String));
    expect(answer.value.message).toEqual(expect.any(String));
  }
  expect((await sdkCall(page, 'getBodyProportions')).value).toEqual({
    head: 40,
    arms: 0,
    chest: 0,
  });
  expect((await sdkCall(page, 'getSkinToneCorrection')).value).toBe(-25);
  expect((await sdkCall(page, 'getActiveBody')).value).toEqual({ id: 'body_3' });

  // Animations: one list, and the preview plays what reads back.
  const frame = page.frameLocator('#avaturn-sdk-iframe');
  const picker = frame.getByRole('combobox', { name: 'Animation' });
  const animations = (await sdkCall<{ id: string }[]>(page, 'getAnimationList')).value;
  expect(animations.map((a) => a.id)).toEqual(['idle', 'wave', 'walk']);
  const offered = (
    await Promise.all((await picker.locator('option').all()).map((o) => o.getAttribute('value')))
  ).filter(Boolean);
  expect(offered).toEqual(animations.map((a) => a.id));
  expect((await sdkCall(page, 'getActiveAnimation')).value).toEqual({ id: 'idle' });
  await expect(picker).toHaveValue('idle');
  expect((await sdkCall(page, 'setActiveAnimation', 'wave')).ok).toBe(true);
  expect((await sdkCall(page, 'getActiveAnimation')).value).toEqual({ id: 'wave' });
  await expect(picker).toHaveValue('wave');
  await expectPreviewMoving(page, true);
  // The page's own picker: the T-pose stands still, and reads back as no animation.
  await picker.selectOption('');
  await expectPreviewMoving(page, false);
  expect((await sdkCall(page, 'getActiveAnimation')).value).toEqual({ id: '' });
  expect((await sdkCall(page, 'setActiveAnimation', 'walk')).ok).toBe(true);
  await expectPreviewMoving(page, true);

  // exportAvatar gives a valid GLB, and the API's customization shows the changes.
  const exported = await sdkCall<{
    url: string;
    urlType: string;
    avatarId: string;
    sessionId: string;
    bodyId: string;
    gender: string;
  }>(page, 'exportAvatar');
  expect(exported.ok).toBe(true);
  expect(exported.value).toMatchObject({
    urlType: 'httpURL',
    avatarId,
    sessionId,
    bodyId: 'body_3',
    gender: 'female',
  });
  const glb = new Uint8Array(await (await fetch(exported.value.url)).arrayBuffer());
  expect((await validate(glb)).issues.numErrors).toBe(0);
  const customization = (await svc.api('GET', `/api/v1/avatars/${avatarId}/customization`))
    .body as {
    body: string;
    eye_texture: string;
    skin_tone_correction: number;
    bone_scale: { head: number };
    assets: {
      hair_and_headwear: { id: string; color: string };
      eyewear: { id: string; color: string };
    };
  };
  expect(customization).toMatchObject({
    body: 'body_3',
    eye_texture: 'green',
    skin_tone_correction: -0.5,
    bone_scale: { head: 0.2 },
    assets: {
      hair_and_headwear: { id: hair.id, color: '#aa3311' },
      eyewear: { id: glasses.id, color: '#00000000' },
    },
  });

  // The page's own Next button fires `export`; asset and body changes fired their events.
  await frame.getByRole('button', { name: 'Next' }).click();
  await expect
    .poll(async () => (await hostEvents(page)).find((e) => e.name === 'export')?.data, {
      timeout: 60_000,
    })
    .toMatchObject({ avatarId, sessionId, urlType: 'httpURL' });
  const names = (await hostEvents(page)).map((e) => e.name);
  expect(names).toContain('assetSet');
  expect(names).toContain('bodySet');
  expect(errors).toEqual([]);
});

test('dataURL delivery carries the GLB itself', async ({ page }) => {
  test.setTimeout(180_000);
  const repo = embeddingRepo(svc.context.db);
  repo.set(svc.defaultProject.id, { exportDelivery: 'dataURL' });
  try {
    const { url } = await sessionUrl({ type: 'edit_existing', avatar_id: avatarId });
    const errors = await openHost(page, url, true);
    await waitForLoad(page);
    const exported = await sdkCall<{ url: string; urlType: string }>(page, 'exportAvatar');
    expect(exported.value.urlType).toBe('dataURL');
    const [, b64] = exported.value.url.split('base64,');
    const glb = new Uint8Array(Buffer.from(b64!, 'base64'));
    expect((await validate(glb)).issues.numErrors).toBe(0);
    expect(errors).toEqual([]);
  } finally {
    repo.set(svc.defaultProject.id, { exportDelivery: 'httpURL' });
  }
});

test('noui: no page buttons, load still sent, methods work', async ({ page }) => {
  test.setTimeout(180_000);
  const { url } = await sessionUrl({ type: 'edit_existing', avatar_id: avatarId });
  const errors = await openHost(page, url, true);
  await waitForLoad(page);
  const frame = page.frameLocator('#avaturn-sdk-iframe');
  await expect(frame.getByRole('radiogroup').first()).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Next' })).toHaveCount(0);
  expect((await sdkCall(page, 'setEyeColor', 'amber')).ok).toBe(true);
  expect((await sdkCall(page, 'getEyeColor')).value).toBe('amber');
  expect(errors).toEqual([]);
});

test('create: photos through the file inputs give an avatar.ready carrying the session id', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { url, id: sessionId } = await sessionUrl({ type: 'create' });
  const errors = await openHost(page, url);
  const frame = page.frameLocator('#avaturn-sdk-iframe');
  await importPhotos(frame, 'person-b');
  await frame.getByRole('radio', { name: 'Female' }).check();
  await frame.getByRole('button', { name: 'Create avatar' }).click();
  await expectReadyEventOf(sessionId, 180_000);
  await waitForLoad(page);
  expect(errors).toEqual([]);
});

test('create_or_edit_existing with avatars: a dashboard with renders, edit one or create another', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { url } = await sessionUrl({ type: 'create_or_edit_existing' });
  const errors = await openHost(page, url);
  const frame = page.frameLocator('#avaturn-sdk-iframe');
  await expect(frame.getByRole('heading', { name: 'Your avatars' })).toBeVisible({
    timeout: 60_000,
  });
  await page.waitForFunction(() => 'sdk' in globalThis, undefined, { timeout: 60_000 });
  expect((await sdkCall(page, 'getAvatarId')).value).toEqual({ id: null });
  const card = frame.getByRole('listitem', { name: 'Avatar 1' });
  await expect(card.getByText('Ready')).toBeVisible();
  // Its thumbnail is a render of the avatar that the page really shows.
  const thumbnail = card.getByRole('img', { name: 'Avatar 1, as it looks now' });
  await expect(thumbnail).toBeVisible({ timeout: 120_000 });
  await expect
    .poll(
      () => thumbnail.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  await shot(page, 'dashboard');
  await card.getByRole('button', { name: 'Edit avatar 1' }).click();
  await waitForLoad(page);
  expect((await sdkCall(page, 'getAvatarId')).value).toEqual({ id: avatarId });
  await expect(frame.getByRole('button', { name: 'Next' })).toBeVisible();

  // Back to the dashboard, where "Create a new avatar" opens the creation flow.
  await frame.getByRole('button', { name: 'Your avatars' }).click();
  await expect(frame.getByRole('heading', { name: 'Your avatars' })).toBeVisible();
  expect((await sdkCall(page, 'getAvatarId')).value).toEqual({ id: null });
  await frame.getByRole('button', { name: 'Create a new avatar' }).click();
  await expect(frame.getByLabel('Import frontal')).toBeAttached();
  await expect(frame.getByRole('button', { name: 'Create avatar' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('create_or_edit_existing without avatars: the creation flow, then the editor', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const newcomer = ((await svc.api('POST', '/api/v1/users/new')).body as { id: string }).id;
  const res = await svc.api('POST', '/api/v1/sessions/new', {
    body: { user_id: newcomer, config: { type: 'create_or_edit_existing' } },
  });
  const { url, id: sessionId } = res.body as { url: string; id: string };
  const errors = await openHost(page, url);
  const frame = page.frameLocator('#avaturn-sdk-iframe');
  await expect(frame.getByLabel('Import frontal')).toBeAttached({ timeout: 60_000 });
  await expect(frame.getByRole('heading', { name: 'Your avatars' })).toHaveCount(0);
  await importPhotos(frame, 'person-c');
  await frame.getByRole('button', { name: 'Create avatar' }).click();
  await waitForLoad(page);
  const made = (await svc.api('GET', `/api/v1/users/${newcomer}/avatars`)).body as {
    id: string;
  }[];
  expect(made).toHaveLength(1);
  expect((await sdkCall(page, 'getAvatarId')).value).toEqual({ id: made[0]!.id });
  await expectReadyEventOf(sessionId, 30_000);
  expect(errors).toEqual([]);
});

test('an unknown session URL shows a clear page, answers 404 and never hands shake', async ({
  page,
}) => {
  const { url } = await sessionUrl({ type: 'create' });
  const wrong = url.replace(/key=[^&]+/, 'key=wrong');
  expect((await fetch(wrong)).status).toBe(404);
  await openHost(page, wrong);
  const frame = page.frameLocator('#avaturn-sdk-iframe');
  await expect(
    frame.getByRole('heading', { name: 'This session link is not valid' }),
  ).toBeVisible();
  // init() never resolves: the page sent no handshake.
  expect(await page.evaluate(() => 'sdk' in globalThis)).toBe(false);
});

test('an expired session URL shows a clear page, answers 410 and never hands shake', async ({
  page,
}) => {
  const { url, id } = await sessionUrl({ type: 'edit_existing', avatar_id: avatarId });
  svc.context.db.prepare('UPDATE sessions SET expires_at = ? WHERE id = ?').run(Date.now() - 1, id);
  expect((await fetch(url)).status).toBe(410);
  await openHost(page, url);
  const frame = page.frameLocator('#avaturn-sdk-iframe');
  await expect(frame.getByRole('heading', { name: 'This session link has expired' })).toBeVisible();
  expect(await page.evaluate(() => 'sdk' in globalThis)).toBe(false);
});

test('a host origin outside the allowlist cannot frame the page', async ({ page }) => {
  const repo = embeddingRepo(svc.context.db);
  repo.set(svc.defaultProject.id, { frameOrigins: ['https://app.example'] });
  try {
    const { url } = await sessionUrl({ type: 'edit_existing', avatar_id: avatarId });
    await openHost(page, url);
    // Chromium replaces a frame that CSP frame-ancestors refuses with its error page.
    await expect
      .poll(() => page.frames().some((f) => f.url().startsWith('chrome-error://')), {
        timeout: 30_000,
      })
      .toBe(true);
    expect(await page.evaluate(() => 'sdk' in globalThis)).toBe(false);
  } finally {
    repo.set(svc.defaultProject.id, { frameOrigins: ['*'] });
  }
});
