/** The guided capture flow: shots, live guidance, auto-capture and the upload that follows. */
import { create } from 'zustand';
import type { BodyType, ScanStatus } from '../../shared/api/index.js';
import type { AvatarFailure, Person } from '../../shared/studio/index.js';
import { call, errorMessage, useApp } from '../store.js';
import { studio } from '../studio-bridge.js';
import type { FaceReading, FrameAnalysis } from './analysis.js';
import { COUNTDOWN_MS, IDLE, countdownNumber, step, type AutoPhase } from './autocapture.js';
import { guide, SLOTS, type Checks, type ShotSlot } from './guidance.js';
import { toUpload, type Shot } from './photos.js';

export type CapturePhase = 'intro' | 'shoot' | 'uploading' | 'processing' | 'ready' | 'failed';

export interface LiveState {
  instruction: string;
  checks: Checks | null;
  countdown: number | null;
  yaw: number | null;
}

const NO_LIVE: LiveState = {
  instruction: 'Starting the camera…',
  checks: null,
  countdown: null,
  yaw: null,
};

interface CaptureState {
  phase: CapturePhase;
  shots: Partial<Record<ShotSlot, Shot>>;
  /** The slot the camera is filling now; null when all three are taken. */
  active: ShotSlot | null;
  live: LiveState;
  auto: AutoPhase;
  previous: FaceReading | null;
  autoCapture: boolean;
  /** How long the 3-2-1 before an automatic shot lasts. */
  countdownMs: number;
  bodyType: BodyType;
  telephoto: boolean;
  /** 'new' or an existing person's id. */
  personChoice: string;
  newName: string;
  /** Upload and processing. */
  personName: string;
  personId: string | null;
  avatarId: string | null;
  sentBytes: number;
  totalBytes: number;
  status: ScanStatus | null;
  failure: AvatarFailure | null;
  error: string | null;

  start(people: Person[]): void;
  reset(): void;
  setShot(shot: Shot): void;
  retake(slots: ShotSlot[]): void;
  setActive(slot: ShotSlot): void;
  onAnalysis(analysis: FrameAnalysis, now: number): 'fire' | null;
  setLiveMessage(instruction: string): void;
  set(
    patch: Partial<
      Pick<
        CaptureState,
        'bodyType' | 'telephoto' | 'personChoice' | 'newName' | 'autoCapture' | 'countdownMs'
      >
    >,
  ): void;
  createAvatar(): Promise<void>;
  applyStatus(status: ScanStatus, failure: AvatarFailure | null): void;
}

/** "Person N" with the first N not already taken. */
export function defaultPersonName(people: readonly { name: string }[]): string {
  const taken = new Set(people.map((p) => p.name.trim().toLowerCase()));
  for (let n = people.length + 1; ; n++) if (!taken.has(`person ${n}`)) return `Person ${n}`;
}

export function firstMissing(shots: Partial<Record<ShotSlot, Shot>>): ShotSlot | null {
  return SLOTS.find((s) => !shots[s]) ?? null;
}

function side1Sign(shots: Partial<Record<ShotSlot, Shot>>): -1 | 0 | 1 {
  const yaw = shots.side1?.yaw;
  if (yaw === null || yaw === undefined) return 0;
  return yaw > 0 ? 1 : yaw < 0 ? -1 : 0;
}

let stopPolling: (() => void) | null = null;

/** What one capture session starts with; the choices (body type, telephoto, person) outlive it. */
const FRESH_SESSION = {
  phase: 'intro',
  shots: {},
  active: 'frontal',
  live: NO_LIVE,
  auto: IDLE,
  previous: null,
  personId: null,
  avatarId: null,
  sentBytes: 0,
  totalBytes: 0,
  status: null,
  failure: null,
  error: null,
} satisfies Partial<CaptureState>;

export const useCapture = create<CaptureState>()((set, get) => ({
  ...FRESH_SESSION,
  autoCapture: true,
  countdownMs: COUNTDOWN_MS,
  bodyType: 'male',
  telephoto: false,
  personChoice: 'new',
  newName: 'Person 1',
  personName: '',

  start(people) {
    get().reset();
    set({ phase: 'shoot', newName: defaultPersonName(people), personChoice: 'new' });
  },
  reset() {
    stopPolling?.();
    for (const shot of Object.values(get().shots)) URL.revokeObjectURL(shot.url);
    set(FRESH_SESSION);
  },
  setShot(shot) {
    const old = get().shots[shot.slot];
    if (old) URL.revokeObjectURL(old.url);
    const shots = { ...get().shots, [shot.slot]: shot };
    set({ shots, active: firstMissing(shots), auto: IDLE, previous: null });
  },
  retake(slots) {
    stopPolling?.();
    const shots = { ...get().shots };
    for (const slot of slots) {
      const shot = shots[slot];
      if (shot) URL.revokeObjectURL(shot.url);
      delete shots[slot];
    }
    // Side 2 is taken relative to side 1: retaking side 1 also frees the direction of side 2.
    set({
      shots,
      active: firstMissing(shots),
      phase: 'shoot',
      auto: IDLE,
      previous: null,
      status: null,
      failure: null,
      error: null,
      avatarId: null,
    });
  },
  setActive(slot) {
    set({ active: slot, auto: IDLE, previous: null });
  },
  onAnalysis(analysis, now) {
    const state = get();
    const slot = state.active;
    if (state.phase !== 'shoot' || !slot) return null;
    const g = guide(
      { slot, side1Sign: side1Sign(state.shots), previous: state.previous },
      analysis,
    );
    const auto = state.autoCapture ? step(state.auto, g.ready, now, state.countdownMs) : IDLE;
    const face = analysis.faces.length === 1 ? analysis.faces[0]! : null;
    set({
      auto,
      previous: face,
      live: {
        instruction: auto.phase === 'countdown' ? 'Hold still…' : g.instruction,
        checks: g.checks,
        countdown:
          auto.phase === 'countdown' ? countdownNumber(auto.remaining, state.countdownMs) : null,
        yaw: face ? face.yaw : null,
      },
    });
    return auto.phase === 'fire' ? 'fire' : null;
  },
  setLiveMessage(instruction) {
    set({ live: { ...get().live, instruction, countdown: null } });
  },
  set(patch) {
    set(patch);
  },
  applyStatus(status, failure) {
    if (status === 'ready') {
      stopPolling?.();
      set({ status, failure: null, phase: 'ready' });
      void useApp.getState().loadPeople();
    } else if (status === 'failed') {
      stopPolling?.();
      set({ status, failure, phase: 'failed' });
      void useApp.getState().loadPeople();
    } else {
      set({ status, phase: 'processing' });
    }
  },
  async createAvatar() {
    const state = get();
    const { frontal, side1, side2 } = state.shots;
    if (!frontal || !side1 || !side2) return;
    stopPolling?.();
    set({
      phase: 'uploading',
      error: null,
      failure: null,
      status: null,
      avatarId: null,
      sentBytes: 0,
      totalBytes: frontal.blob.size + side1.blob.size + side2.blob.size,
    });
    let personId: string;
    let personName: string;
    try {
      if (state.personChoice === 'new') {
        const person = await call('people.create', { name: state.newName.trim() || 'Person' });
        personId = person.id;
        personName = person.name;
        // Retries after a failure go to the same person.
        set({ personChoice: person.id });
        void useApp.getState().loadPeople();
      } else {
        personId = state.personChoice;
        personName = useApp.getState().people.find((p) => p.id === personId)?.name ?? 'this person';
      }
    } catch (error) {
      set({ phase: 'failed', error: errorMessage(error), personName: state.newName });
      return;
    }
    set({ personId, personName });

    const off = studio().subscribe((event) => {
      const now = get();
      if (
        event.type === 'upload.progress' &&
        event.personId === personId &&
        now.phase === 'uploading'
      ) {
        set({ sentBytes: event.sentBytes, totalBytes: event.totalBytes || now.totalBytes });
      } else if (event.type === 'avatar.status' && event.personId === personId) {
        if (now.avatarId === null && now.phase === 'uploading') set({ avatarId: event.avatarId });
        if (event.avatarId === get().avatarId) get().applyStatus(event.status, event.failure);
      }
    });
    let timer: ReturnType<typeof setInterval> | null = null;
    stopPolling = () => {
      off();
      if (timer) clearInterval(timer);
      stopPolling = null;
    };
    try {
      const photos = {
        frontal: await toUpload(frontal),
        side1: await toUpload(side1),
        side2: await toUpload(side2),
      };
      const summary = await call('avatars.create', {
        personId,
        bodyType: state.bodyType,
        telephoto: state.telephoto,
        photos,
      });
      set({ avatarId: summary.id, sentBytes: get().totalBytes });
      get().applyStatus(summary.status, summary.failure);
      if (summary.status === 'ready' || summary.status === 'failed') return;
      // Events can be missed while the event channel reconnects: poll slowly as well.
      timer = setInterval(() => {
        const id = get().avatarId;
        if (!id) return;
        call('avatars.get', { avatarId: id }).then(
          (detail) => {
            if (get().avatarId === id && get().phase === 'processing')
              get().applyStatus(detail.status, detail.failure);
          },
          () => undefined,
        );
      }, 4000);
    } catch (error) {
      stopPolling?.();
      set({ phase: 'failed', error: errorMessage(error) });
    }
  },
}));
