import path from 'node:path';
import type {
  KioskAdminView,
  KioskPublicSettings,
  KioskResult,
  KioskSettingsChange,
} from '../../../shared/studio/index.js';
import type { BackendContext } from '../context.js';
import type { StudioDb } from '../studio-db.js';
import { StudioFailure } from '../studio-failure.js';
import { adminSessions } from './admin-sessions.js';
import type { DeliveryFile } from './delivery-page.js';
import { deliveryLinks } from './delivery-links.js';
import { startDeliveryServer, type RunningDeliveryServer } from './delivery-server.js';
import { kioskRecords } from './kiosk-records.js';
import { kioskSettingsStore } from './kiosk-settings.js';
import { lanInterfaces } from './lan-interfaces.js';
import { afterWrongPin, lockedFor, triesLeft } from './pin-lock.js';
import { hashPin, verifyPin } from './pin.js';
import { qrDataUrl } from './qr.js';
import { visitorLifecycle } from './visitors.js';

/** How this launch starts kiosk mode (command line); the stored settings do the rest. */
export interface KioskLaunch {
  /** `--kiosk`: start in kiosk mode whatever the settings say. */
  enabled?: boolean;
  /** `--kiosk-idle-seconds`: this launch's idle timeout. */
  idleSeconds?: number;
  /** The PIN to set at start (AVATAR_STUDIO_KIOSK_PIN); otherwise the stored one, or 1234 at first. */
  pin?: string;
}

/** Until the operator sets one: the admin screen says so on every visit. */
export const FACTORY_PIN = '1234';
const SCENE = 'common/turnaround';
const RESULT_WAIT_MS = 180_000;
const RENDER_GRACE_MS = 60_000;
const DRAIN_EVERY_MS = 15_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface KioskFeatureOptions {
  ctx: BackendContext;
  db: StudioDb;
  dataDir: string;
  launch: KioskLaunch | undefined;
  /** Starts an export or a render job through the files handlers. */
  startExport(avatarId: string): Promise<unknown>;
  startRender(avatarId: string, scene: string): Promise<unknown>;
  now?: () => Date;
}

/**
 * Kiosk mode's back end: settings, PIN, visitors, download links and the
 * LAN delivery server, wired together. Commands reach it through
 * handlers/kiosk.ts.
 */
export async function createKiosk(options: KioskFeatureOptions) {
  const { ctx } = options;
  const { log, records, library } = ctx;
  const now = options.now ?? (() => new Date());
  const store = kioskSettingsStore(options.dataDir);
  const kiosk = kioskRecords(options.db);
  const links = deliveryLinks(kiosk, now);
  const sessions = adminSessions();
  let active = Boolean(options.launch?.enabled) || store.get().startInKiosk;
  let idleOverride = options.launch?.idleSeconds ?? null;

  if (options.launch?.pin) await setPin(options.launch.pin, false);
  else if (!kiosk.pin()) await setPin(FACTORY_PIN, true);

  async function setPin(pin: string, isDefault: boolean) {
    kiosk.setPin(await hashPin(pin), isDefault);
  }

  const visitors = visitorLifecycle({
    kiosk,
    records,
    library,
    api: () => ctx.link.api(),
    baseUrl: () => ctx.link.baseUrl(),
    settings: () => store.get(),
    log,
    now,
  });

  // ── Delivery ──────────────────────────────────────────────────────────────
  let delivery: RunningDeliveryServer | null = null;
  let deliveryError: string | null = null;

  function filesFor(visitorId: string): { files: DeliveryFile[]; expiresAt: string } | null {
    const visitor = kiosk.visitor(visitorId);
    if (!visitor || visitor.state === 'deleted') return null;
    const files: DeliveryFile[] = [];
    for (const avatar of records.person(visitor.person_id)?.avatars ?? []) {
      const detail = records.avatarDetail(avatar.id);
      const saved = detail?.files ?? [];
      const glb = saved.filter((f) => f.kind === 'export').at(-1);
      if (glb)
        files.push({
          name: 'avatar.glb',
          path: glb.path,
          mimeType: glb.mimeType,
          bytes: glb.bytes,
        });
      saved
        .filter((f) => f.kind === 'render')
        .forEach((f, i) =>
          files.push({
            name: `avatar-${i + 1}${path.extname(f.path)}`,
            path: f.path,
            mimeType: f.mimeType,
            bytes: f.bytes,
          }),
        );
    }
    if (files.length === 0) return null;
    const expiresAt = new Date(now().getTime() + store.get().delivery.linkMinutes * 60_000);
    return { files, expiresAt: expiresAt.toISOString() };
  }

  async function startDelivery() {
    await delivery?.close();
    delivery = null;
    const { host, port } = store.get().delivery;
    try {
      delivery = await startDeliveryServer({
        host,
        port,
        log,
        resolve: (token) => links.resolve(token),
        filesFor,
        onServed: (visitorId) => ctx.emit({ type: 'kiosk.download', visitorId }),
      });
      deliveryError = null;
      log.info('kiosk delivery server listening', { origin: delivery.origin });
    } catch (error) {
      deliveryError = `The download server could not listen on ${host}:${port}: ${String(error)}`;
      log.error('kiosk delivery server failed', { error: String(error) });
    }
  }

  // ── Results ───────────────────────────────────────────────────────────────
  async function result(visitorId: string): Promise<KioskResult> {
    const visitor = visitors.requireActive(visitorId);
    const avatar = records.person(visitor.person_id)?.avatars.at(-1);
    if (!avatar) throw new StudioFailure('not_found', 'No avatar was made in this visit.');
    if (avatar.status !== 'ready')
      throw new StudioFailure('conflict', 'The avatar is not ready yet.');
    const filesNow = () => records.avatarDetail(avatar.id)?.files ?? [];
    const open = records.openJobs().filter((j) => j.avatar_id === avatar.id);
    if (!filesNow().some((f) => f.kind === 'export') && !open.some((j) => j.kind === 'export'))
      await options.startExport(avatar.id);
    if (!filesNow().some((f) => f.kind === 'render') && !open.some((j) => j.kind === 'render'))
      await options.startRender(avatar.id, SCENE).catch((error: unknown) =>
        // Without a render the visitor still gets the GLB and the live view.
        log.warn('kiosk render not started', { error: String(error) }),
      );
    const started = Date.now();
    let exportAt: number | null = null;
    for (;;) {
      const files = filesNow();
      const glb = files.filter((f) => f.kind === 'export').at(-1);
      const render = files.filter((f) => f.kind === 'render').at(-1);
      if (glb && exportAt === null) exportAt = Date.now();
      const renderPending = records
        .openJobs()
        .some((j) => j.avatar_id === avatar.id && j.kind === 'render');
      if (glb && (render || !renderPending || Date.now() - exportAt! > RENDER_GRACE_MS)) {
        if (!delivery) throw new StudioFailure('internal', deliveryError ?? 'No download server.');
        if (!kiosk.visitor(visitorId) || kiosk.visitor(visitorId)!.state !== 'active')
          throw new StudioFailure('not_found', 'This visit has ended.');
        const first = !kiosk.hasLink(visitorId);
        const link = links.issue(visitorId, store.get().delivery.linkMinutes);
        if (first) kiosk.bump('avatars');
        const url = `${delivery.origin}/d/${link.token}/`;
        return {
          avatarId: avatar.id,
          glbFileId: glb.id,
          renderFileId: render?.id ?? null,
          link: {
            url,
            qrDataUrl: await qrDataUrl(url),
            expiresAt: link.expiresAt,
            minutes: store.get().delivery.linkMinutes,
          },
        };
      }
      if (Date.now() - started > RESULT_WAIT_MS)
        throw new StudioFailure('timeout', 'The avatar file did not arrive in time.');
      visitors.requireActive(visitorId);
      await sleep(300);
    }
  }

  // ── Operator ──────────────────────────────────────────────────────────────
  const requireSession = (session: string) => {
    if (!sessions.check(session))
      throw new StudioFailure('auth', 'The admin session has ended; enter the PIN again.');
  };

  async function unlock(pin: string) {
    const stored = kiosk.pin();
    if (!stored) throw new StudioFailure('internal', 'No PIN is set.');
    const t = now().getTime();
    const tries = {
      failedTries: stored.failed_tries,
      lockedUntil: stored.locked_until ? Date.parse(stored.locked_until) : null,
    };
    const locked = lockedFor(tries, t);
    if (locked > 0)
      return { unlocked: false as const, triesLeft: 0, lockedSeconds: Math.ceil(locked / 1000) };
    if (await verifyPin(pin, stored.hash)) {
      kiosk.setPinTries(0, null);
      return { unlocked: true as const, session: sessions.open() };
    }
    const next = afterWrongPin(tries, t);
    kiosk.setPinTries(
      next.failedTries,
      next.lockedUntil === null ? null : new Date(next.lockedUntil).toISOString(),
    );
    log.warn('kiosk wrong PIN', { locked: next.lockedUntil !== null });
    return {
      unlocked: false as const,
      triesLeft: next.lockedUntil === null ? triesLeft(next) : 0,
      lockedSeconds: Math.ceil(lockedFor(next, t) / 1000),
    };
  }

  function adminView(): KioskAdminView {
    const settings = store.get();
    return {
      settings: idleOverride === null ? settings : { ...settings, idleSeconds: idleOverride },
      counters: kiosk.counters(),
      interfaces: lanInterfaces(),
      delivery: { url: delivery?.origin ?? null, error: deliveryError },
      pinIsDefault: kiosk.pin()?.is_default === 1,
      pendingDeletions: kiosk.pendingDeletions(),
    };
  }

  async function update(change: KioskSettingsChange, newPin: string | undefined) {
    if (change.delivery && !lanInterfaces().some((i) => i.address === change.delivery!.host))
      throw new StudioFailure('bad_input', 'Choose one of this machine’s network interfaces.');
    const before = store.get();
    store.update(change);
    if (change.idleSeconds !== undefined) idleOverride = null;
    if (newPin) await setPin(newPin, false);
    if (JSON.stringify(before.delivery) !== JSON.stringify(store.get().delivery))
      await startDelivery();
    if (change.startAtLogin !== undefined) ctx.desktop?.setStartAtLogin?.(change.startAtLogin);
    ctx.emit({ type: 'kiosk.changed' });
    return adminView();
  }

  function publicSettings(): KioskPublicSettings {
    const s = store.get();
    return {
      consent: s.consent,
      languages: s.languages,
      idleSeconds: idleOverride ?? s.idleSeconds,
      countdownSeconds: s.countdownSeconds,
      boothClosed: s.boothClosed,
      attractLoop: s.attractLoop,
      adminGesture: s.adminGesture,
    };
  }

  const requireActiveMode = () => {
    if (!active) throw new StudioFailure('conflict', 'Kiosk mode is not on.');
  };

  // ── Start ─────────────────────────────────────────────────────────────────
  await visitors
    .recover()
    .catch((error: unknown) =>
      log.warn('kiosk recovery incomplete; retried later', { error: String(error) }),
    );
  if (active) await startDelivery();
  const drainTimer = setInterval(() => void visitors.drain(), DRAIN_EVERY_MS);
  drainTimer.unref();

  return {
    isActive: () => active,
    state: () => ({
      active,
      settings: publicSettings(),
      attractFileIds: store.get().attractLoop ? kiosk.recentRenders(12) : [],
      startInKiosk: store.get().startInKiosk,
    }),
    async enter(now: boolean, startInKiosk: boolean | undefined) {
      if (startInKiosk !== undefined) store.update({ startInKiosk });
      if (now && !active) {
        active = true;
        await startDelivery();
        ctx.desktop?.setKiosk?.(true);
        log.info('kiosk mode on');
      }
      ctx.emit({ type: 'kiosk.changed' });
    },
    reset: async () => {
      requireActiveMode();
      await visitors.abandonActive();
    },
    startVisitor: (language: Parameters<typeof visitors.start>[0], consentVersion: number) => {
      requireActiveMode();
      return visitors.start(language, consentVersion);
    },
    result,
    finish: (visitorId: string, reason: 'done' | 'idle' | 'abandoned') =>
      visitors.finish(visitorId, reason),
    unlock,
    adminGet(session: string) {
      requireSession(session);
      return adminView();
    },
    async adminUpdate(session: string, change: KioskSettingsChange, newPin?: string) {
      requireSession(session);
      return update(change, newPin);
    },
    async leave(session: string) {
      requireSession(session);
      sessions.closeAll();
      await visitors.abandonActive();
      active = false;
      await delivery?.close();
      delivery = null;
      ctx.desktop?.setKiosk?.(false);
      ctx.emit({ type: 'kiosk.changed' });
    },
    lock(session: string) {
      sessions.close(session);
    },
    async close() {
      clearInterval(drainTimer);
      await delivery?.close();
    },
  };
}
export type Kiosk = Awaited<ReturnType<typeof createKiosk>>;
