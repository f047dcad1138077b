/**
 * Kiosk mode's part of the studio contract: the unattended booth's visitor
 * flow and its PIN-guarded operator menu. Spread into COMMANDS and the
 * StudioEvent union by contract.ts.
 */
import { z } from 'zod';
import { Uuid } from '../api/index.js';

/** The languages the kiosk's message catalogue carries. */
export const KIOSK_LANGUAGES = ['en', 'de', 'fr'] as const;
export const KioskLanguage = z.enum(KIOSK_LANGUAGES);
export type KioskLanguage = z.infer<typeof KioskLanguage>;

/** 4 to 12 digits: an on-screen pad has digits only. */
export const KioskPin = z.string().regex(/^\d{4,12}$/, 'A PIN is 4 to 12 digits.');

export const KioskRetention = z.discriminatedUnion('mode', [
  /** The default: everything goes when the visitor is done. */
  z.object({ mode: z.literal('delete') }).strict(),
  /** The outputs and the download link stay for this many minutes after the visitor is done. */
  z.object({ mode: z.literal('keep'), minutes: z.number().int().min(1).max(1440) }).strict(),
  /** The outputs are copied to an operator's folder, then everything goes. */
  z.object({ mode: z.literal('copy'), folder: z.string().min(1).max(4096) }).strict(),
]);
export type KioskRetention = z.infer<typeof KioskRetention>;

/** Where the operator's long-press works; `any` is every corner. */
export const KioskCorner = z.enum(['any', 'top-left', 'top-right', 'bottom-left', 'bottom-right']);
export type KioskCorner = z.infer<typeof KioskCorner>;

export const KioskDelivery = z
  .object({
    /** The interface address the LAN download server binds to. */
    host: z.string().min(1).max(255),
    /** 0 picks a free port at each start. */
    port: z.number().int().min(0).max(65535),
    /** How long a visitor's download link lives at most. */
    linkMinutes: z.number().int().min(1).max(240),
  })
  .strict();
export type KioskDelivery = z.infer<typeof KioskDelivery>;

export const KioskSettings = z
  .object({
    consent: z
      .object({
        /** Bumped by the back end whenever a text changes; logged with every consent. */
        version: z.number().int().min(1),
        texts: z.partialRecord(KioskLanguage, z.string().trim().min(1).max(4000)),
      })
      .strict(),
    /** The languages offered to visitors; the first is where every visitor starts. */
    languages: z.array(KioskLanguage).min(1).max(KIOSK_LANGUAGES.length),
    idleSeconds: z.number().int().min(3).max(600),
    countdownSeconds: z.number().int().min(1).max(10),
    retention: KioskRetention,
    delivery: KioskDelivery,
    boothClosed: z.boolean(),
    /** Whether the attract screen may loop recent renders. */
    attractLoop: z.boolean(),
    /** Electron: start in kiosk mode without `--kiosk`. */
    startInKiosk: z.boolean(),
    /** Electron: start with the operating system's login. */
    startAtLogin: z.boolean(),
    adminGesture: z
      .object({ corner: KioskCorner, holdSeconds: z.number().int().min(1).max(10) })
      .strict(),
  })
  .strict();
export type KioskSettings = z.infer<typeof KioskSettings>;

/** What the operator may change; the consent version is the back end's to bump. */
export const KioskSettingsChange = KioskSettings.omit({ consent: true })
  .extend({ consentTexts: KioskSettings.shape.consent.shape.texts })
  .partial()
  .strict();
export type KioskSettingsChange = z.infer<typeof KioskSettingsChange>;

/** What every visitor-facing screen needs; no delivery or retention details. */
export const KioskPublicSettings = KioskSettings.pick({
  consent: true,
  languages: true,
  idleSeconds: true,
  countdownSeconds: true,
  boothClosed: true,
  attractLoop: true,
  adminGesture: true,
});
export type KioskPublicSettings = z.infer<typeof KioskPublicSettings>;

export const KioskCounters = z.object({
  visitors: z.number().int().nonnegative(),
  avatars: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
});
export type KioskCounters = z.infer<typeof KioskCounters>;

const Session = z.string().min(16).max(100);
const VisitorRef = z.object({ visitorId: Uuid }).strict();
const Ack = z.object({ ok: z.literal(true) });

export const KioskAdminView = z.object({
  settings: KioskSettings,
  counters: KioskCounters,
  /** The machine's interfaces the delivery server can bind to. */
  interfaces: z.array(z.object({ name: z.string(), address: z.string() })),
  /** Where the delivery server listens now, or why it does not. */
  delivery: z.object({ url: z.string().nullable(), error: z.string().nullable() }),
  /** Still the factory PIN: the admin screen asks to change it. */
  pinIsDefault: z.boolean(),
  pendingDeletions: z.number().int().nonnegative(),
});
export type KioskAdminView = z.infer<typeof KioskAdminView>;

export const KioskResult = z.object({
  avatarId: Uuid,
  glbFileId: z.string(),
  /** The turntable image; null when the render did not arrive in time. */
  renderFileId: z.string().nullable(),
  link: z.object({
    url: z.string(),
    /** The QR code of `url`, as a PNG data URL. */
    qrDataUrl: z.string(),
    expiresAt: z.string(),
    /** How long the link lives from now, for the visitor. */
    minutes: z.number().int().positive(),
  }),
});
export type KioskResult = z.infer<typeof KioskResult>;

export const KIOSK_COMMANDS = {
  /** Whether the booth runs, its visitor settings, and renders for the attract loop (when allowed). */
  'kiosk.state': {
    input: z.object({}).strict(),
    output: z.object({
      active: z.boolean(),
      settings: KioskPublicSettings,
      attractFileIds: z.array(z.string()),
      /** Whether the studio starts as a booth (the studio's Settings show it). */
      startInKiosk: z.boolean(),
    }),
  },
  /** From the studio: turn the booth on now, and/or whether the studio starts as one. */
  'kiosk.enter': {
    input: z.object({ now: z.boolean(), startInKiosk: z.boolean().optional() }).strict(),
    output: Ack,
  },
  /** Discards any visitor in progress: the UI starts over (idle reset, reload after a crash). */
  'kiosk.reset': { input: z.object({}).strict(), output: Ack },
  /** Consent given: logs it and creates the visitor's own service user. */
  'kiosk.visitor.start': {
    input: z.object({ language: KioskLanguage, consentVersion: z.number().int().min(1) }).strict(),
    output: z.object({ visitorId: Uuid, personId: z.string() }),
  },
  /** Waits for the GLB and the turntable render, then opens the visitor's download link. */
  'kiosk.visitor.result': { input: VisitorRef, output: KioskResult },
  /** The visitor is done (or walked away): their data goes as the retention says. */
  'kiosk.visitor.finish': {
    input: VisitorRef.extend({ reason: z.enum(['done', 'idle', 'abandoned']) }).strict(),
    output: Ack,
  },
  /** Answers an admin session, or how many tries are left / how long the lock lasts. */
  'kiosk.admin.unlock': {
    input: z.object({ pin: z.string().max(64) }).strict(),
    output: z.discriminatedUnion('unlocked', [
      z.object({ unlocked: z.literal(true), session: z.string() }),
      z.object({
        unlocked: z.literal(false),
        triesLeft: z.number().int().nonnegative(),
        lockedSeconds: z.number().int().nonnegative(),
      }),
    ]),
  },
  'kiosk.admin.get': { input: z.object({ session: Session }).strict(), output: KioskAdminView },
  'kiosk.admin.update': {
    input: z
      .object({ session: Session, change: KioskSettingsChange, newPin: KioskPin.optional() })
      .strict(),
    output: KioskAdminView,
  },
  /** Ends the admin session and kiosk mode: the studio comes back. */
  'kiosk.admin.leave': { input: z.object({ session: Session }).strict(), output: Ack },
  /** Ends the admin session; the booth goes on. */
  'kiosk.admin.lock': { input: z.object({ session: Session }).strict(), output: Ack },
} as const;

/** Pushed when kiosk mode starts or ends, or its settings change. */
export const KioskChangedEvent = z.object({ type: z.literal('kiosk.changed') });

/** Pushed when a visitor's download link serves its page or a file: they are at the booth. */
export const KioskDownloadEvent = z.object({ type: z.literal('kiosk.download'), visitorId: Uuid });

export const KIOSK_EVENTS = [KioskChangedEvent, KioskDownloadEvent] as const;
