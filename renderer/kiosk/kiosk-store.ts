/** The booth's flow: which step the visitor is at, their language, and the operator's overlay. */
import { create } from 'zustand';
import type { KioskLanguage, KioskPublicSettings, KioskResult } from '../../shared/studio/index.js';
import { studioShots, useCapture } from '../capture/capture-store.js';
import { call } from '../store.js';
import { markActivity } from './activity.js';

export type KioskStep =
  | { name: 'attract' }
  | { name: 'consent' }
  | { name: 'capture'; visitorId: string }
  | { name: 'processing'; visitorId: string }
  | { name: 'failed'; visitorId: string }
  | { name: 'result'; visitorId: string; result: KioskResult };

export type AdminOverlay = { name: 'closed' } | { name: 'pin' } | { name: 'open'; session: string };

interface KioskState {
  settings: KioskPublicSettings | null;
  attractFileIds: string[];
  language: KioskLanguage;
  step: KioskStep;
  admin: AdminOverlay;
  /** A failed command's message for the visitor, in their language elsewhere. */
  trouble: boolean;
  load(): Promise<void>;
  setLanguage(language: KioskLanguage): void;
  begin(): void;
  decline(): void;
  agree(): Promise<void>;
  makeAvatar(): void;
  showResult(): Promise<void>;
  retryCapture(): void;
  /** Ends the visit: Done, an idle reset, or anything that brings the attract screen back. */
  finish(reason: 'done' | 'idle'): Promise<void>;
  setAdmin(admin: AdminOverlay): void;
}

const visitorOf = (step: KioskStep): string | null => ('visitorId' in step ? step.visitorId : null);

export const useKiosk = create<KioskState>()((set, get) => ({
  settings: null,
  attractFileIds: [],
  language: 'en',
  step: { name: 'attract' },
  admin: { name: 'closed' },
  trouble: false,

  async load() {
    const state = await call('kiosk.state', {});
    const language = state.settings.languages.includes(get().language)
      ? get().language
      : state.settings.languages[0]!;
    set({ settings: state.settings, attractFileIds: state.attractFileIds, language });
  },
  setLanguage: (language) => set({ language }),
  begin() {
    markActivity();
    set({ step: { name: 'consent' }, trouble: false });
  },
  // Nothing was created yet: the visitor only read the text.
  decline: () => set({ step: { name: 'attract' }, language: get().settings?.languages[0] ?? 'en' }),
  async agree() {
    const settings = get().settings;
    if (!settings) return;
    try {
      const visitor = await call('kiosk.visitor.start', {
        language: get().language,
        consentVersion: settings.consent.version,
      });
      const capture = useCapture.getState();
      capture.start([]);
      capture.set({ personChoice: visitor.personId });
      studioShots.getState().setAutoCapture(true);
      studioShots.getState().setCountdown(settings.countdownSeconds * 1000);
      markActivity();
      set({ step: { name: 'capture', visitorId: visitor.visitorId }, trouble: false });
    } catch {
      // The consent text may have changed under the visitor: show the new one.
      await get()
        .load()
        .catch(() => undefined);
      set({ trouble: true, step: { name: 'consent' } });
    }
  },
  makeAvatar() {
    const visitorId = visitorOf(get().step);
    if (!visitorId) return;
    set({ step: { name: 'processing', visitorId } });
    void useCapture.getState().createAvatar();
  },
  async showResult() {
    const step = get().step;
    if (step.name !== 'processing') return;
    try {
      const result = await call('kiosk.visitor.result', { visitorId: step.visitorId });
      if (get().step === step) {
        markActivity();
        set({ step: { name: 'result', visitorId: step.visitorId, result } });
      }
    } catch {
      if (get().step === step) set({ step: { name: 'failed', visitorId: step.visitorId } });
    }
  },
  retryCapture() {
    const visitorId = visitorOf(get().step);
    if (!visitorId) return;
    useCapture.getState().retake(['frontal', 'side1', 'side2']);
    markActivity();
    set({ step: { name: 'capture', visitorId } });
  },
  async finish(reason) {
    const step = get().step;
    const visitorId = visitorOf(step);
    useCapture.getState().reset();
    set({
      step: { name: 'attract' },
      language: get().settings?.languages[0] ?? 'en',
      trouble: false,
    });
    if (visitorId)
      await call('kiosk.visitor.finish', {
        visitorId,
        // Walking away before the result leaves nothing worth keeping.
        reason: step.name === 'result' ? reason : 'abandoned',
      }).catch(() => undefined);
    void get()
      .load()
      .catch(() => undefined);
  },
  setAdmin: (admin) => set({ admin }),
}));
