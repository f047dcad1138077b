/**
 * The three photos being taken and the live guidance for the next one: which
 * slot the camera fills, what the person should do, the auto-capture timer.
 * A factory, so every flow that takes photos (the studio, the hosted session
 * page, a kiosk) has its own store and shares the components that read it.
 */
import { createContext, useContext } from 'react';
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { PhotoSlot } from '../../shared/studio/index.js';
import type { FaceReading, FrameAnalysis } from './analysis.js';
import { COUNTDOWN_MS, IDLE, countdownNumber, step, type AutoPhase } from './autocapture.js';
import { guide, PHOTO_SLOTS, type Checks } from './guidance.js';
import type { Shot } from './photos.js';

export type Shots = Partial<Record<PhotoSlot, Shot>>;

export interface LiveState {
  instruction: string;
  checks: Checks | null;
  countdown: number | null;
  /** The countdown waits for the pose to come back. */
  countdownPaused: boolean;
  yaw: number | null;
}

const NO_LIVE: LiveState = {
  instruction: 'Starting the camera…',
  checks: null,
  countdown: null,
  countdownPaused: false,
  yaw: null,
};

export interface ShotsState {
  shots: Shots;
  /** The slot the camera is filling now; null when all three are taken. */
  active: PhotoSlot | null;
  live: LiveState;
  auto: AutoPhase;
  previous: FaceReading | null;
  autoCapture: boolean;
  /** How long the 3-2-1 before an automatic shot lasts. */
  countdownMs: number;
  setShot(shot: Shot): void;
  /** Drops these photos; the camera goes on with the first missing one. */
  drop(slots: readonly PhotoSlot[]): void;
  setActive(slot: PhotoSlot): void;
  setAutoCapture(on: boolean): void;
  setCountdown(ms: number): void;
  /** Guidance for one analysed frame; 'fire' when the auto-capture says take it now. */
  onAnalysis(analysis: FrameAnalysis, now: number): 'fire' | null;
  setLiveMessage(instruction: string): void;
  /** Drops every photo and starts again from the frontal one. */
  clear(): void;
}

export type ShotsStore = UseBoundStore<StoreApi<ShotsState>>;

export function firstMissing(shots: Shots): PhotoSlot | null {
  return PHOTO_SLOTS.find((s) => !shots[s]) ?? null;
}

export const allTaken = (shots: Shots) => PHOTO_SLOTS.every((s) => shots[s]);

function side1Sign(shots: Shots): -1 | 0 | 1 {
  const yaw = shots.side1?.yaw;
  if (yaw === null || yaw === undefined) return 0;
  return yaw > 0 ? 1 : yaw < 0 ? -1 : 0;
}

const FRESH = {
  shots: {},
  active: 'frontal',
  live: NO_LIVE,
  auto: IDLE,
  previous: null,
} satisfies Partial<ShotsState>;

export function createShotsStore(): ShotsStore {
  return create<ShotsState>()((set, get) => ({
    ...FRESH,
    autoCapture: true,
    countdownMs: COUNTDOWN_MS,
    setShot(shot) {
      const old = get().shots[shot.slot];
      if (old) URL.revokeObjectURL(old.url);
      const shots = { ...get().shots, [shot.slot]: shot };
      set({ shots, active: firstMissing(shots), auto: IDLE, previous: null });
    },
    drop(slots) {
      const shots = { ...get().shots };
      for (const slot of slots) {
        const shot = shots[slot];
        if (shot) URL.revokeObjectURL(shot.url);
        delete shots[slot];
      }
      // Side 2 is taken relative to side 1: retaking side 1 also frees the direction of side 2.
      set({ shots, active: firstMissing(shots), auto: IDLE, previous: null });
    },
    setActive(slot) {
      set({ active: slot, auto: IDLE, previous: null });
    },
    setAutoCapture(autoCapture) {
      set({ autoCapture, auto: IDLE });
    },
    setCountdown(countdownMs) {
      set({ countdownMs, auto: IDLE });
    },
    onAnalysis(analysis, now) {
      const state = get();
      const slot = state.active;
      if (!slot) return null;
      const g = guide(
        { slot, side1Sign: side1Sign(state.shots), previous: state.previous },
        analysis,
      );
      const auto = state.autoCapture ? step(state.auto, g.ready, now, state.countdownMs) : IDLE;
      const face = analysis.faces.length === 1 ? analysis.faces[0]! : null;
      const counting = auto.phase === 'countdown';
      const paused = counting && auto.paused;
      set({
        auto,
        previous: face,
        live: {
          instruction: counting && !paused ? 'Hold still…' : g.instruction,
          checks: g.checks,
          countdown: counting ? countdownNumber(auto.remaining, state.countdownMs) : null,
          countdownPaused: paused,
          yaw: face ? face.yaw : null,
        },
      });
      return auto.phase === 'fire' ? 'fire' : null;
    },
    setLiveMessage(instruction) {
      set({ live: { ...get().live, instruction, countdown: null, countdownPaused: false } });
    },
    clear() {
      for (const shot of Object.values(get().shots)) URL.revokeObjectURL(shot.url);
      set(FRESH);
    },
  }));
}

/** The shots store the capture components read; each flow provides its own. */
export const ShotsContext = createContext<ShotsStore | null>(null);

export function useShotsStore(): ShotsStore {
  const store = useContext(ShotsContext);
  if (!store) throw new Error('No shots store: wrap the capture components in <ShotsContext>.');
  return store;
}
