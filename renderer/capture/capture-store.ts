/**
 * The studio's capture flow: the photos (a shots store), the person and body
 * type they are for, then the upload and the avatar's processing. The phase
 * is one discriminated union, so each phase carries exactly its own data.
 */
import { create } from 'zustand';
import type { BodyType, ScanStatus } from '../../shared/api/index.js';
import type { AvatarFailure, Person, PhotoSlot } from '../../shared/studio/index.js';
import { call, errorMessage, useApp } from '../store.js';
import { studio } from '../studio-bridge.js';
import { toUpload } from './photos.js';
import { createShotsStore } from './shots-store.js';

export type CapturePhase =
  | { name: 'intro' }
  | { name: 'shoot' }
  | { name: 'uploading'; personName: string; sentBytes: number; totalBytes: number }
  | { name: 'processing'; personName: string; avatarId: string; status: ScanStatus }
  | { name: 'ready'; personName: string; avatarId: string }
  /** The service made no avatar from these photos; `failure` says why and which. */
  | { name: 'failed'; personName: string; failure: AvatarFailure | null }
  /** A request failed (network, refusal): the same photos can be sent again. */
  | { name: 'error'; message: string };

export const isBusy = (phase: CapturePhase) =>
  phase.name === 'uploading' || phase.name === 'processing';

/** The studio's photos; the capture components read them through ShotsContext. */
export const studioShots = createShotsStore();

interface CaptureState {
  phase: CapturePhase;
  bodyType: BodyType;
  telephoto: boolean;
  /** 'new' or an existing person's id. */
  personChoice: string;
  newName: string;

  start(people: Person[]): void;
  reset(): void;
  retake(slots: readonly PhotoSlot[]): void;
  set(
    patch: Partial<Pick<CaptureState, 'bodyType' | 'telephoto' | 'personChoice' | 'newName'>>,
  ): void;
  createAvatar(): Promise<void>;
}

/** "Person N" with the first N not already taken. */
export function defaultPersonName(people: readonly { name: string }[]): string {
  const taken = new Set(people.map((p) => p.name.trim().toLowerCase()));
  for (let n = people.length + 1; ; n++) if (!taken.has(`person ${n}`)) return `Person ${n}`;
}

/** Where a status from the service takes the flow. */
export function phaseOfStatus(
  personName: string,
  avatarId: string,
  status: ScanStatus,
  failure: AvatarFailure | null,
): CapturePhase {
  switch (status) {
    case 'ready':
      return { name: 'ready', personName, avatarId };
    case 'failed':
      return { name: 'failed', personName, failure };
    default:
      return { name: 'processing', personName, avatarId, status };
  }
}

let stopWatching: (() => void) | null = null;

export const useCapture = create<CaptureState>()((set, get) => {
  /** Moves on with a status of the avatar being made; ignores one no longer being watched. */
  function applyStatus(avatarId: string, status: ScanStatus, failure: AvatarFailure | null) {
    const phase = get().phase;
    if (phase.name !== 'uploading' && phase.name !== 'processing') return;
    if (phase.name === 'processing' && phase.avatarId !== avatarId) return;
    const next = phaseOfStatus(phase.personName, avatarId, status, failure);
    set({ phase: next });
    if (next.name !== 'processing') {
      stopWatching?.();
      void useApp.getState().loadPeople();
    }
  }

  return {
    phase: { name: 'intro' },
    bodyType: 'male',
    telephoto: false,
    personChoice: 'new',
    newName: 'Person 1',

    start(people) {
      get().reset();
      set({ phase: { name: 'shoot' }, newName: defaultPersonName(people), personChoice: 'new' });
    },
    reset() {
      stopWatching?.();
      studioShots.getState().clear();
      set({ phase: { name: 'intro' } });
    },
    retake(slots) {
      stopWatching?.();
      studioShots.getState().drop(slots);
      set({ phase: { name: 'shoot' } });
    },
    set(patch) {
      set(patch);
    },
    async createAvatar() {
      const state = get();
      const { frontal, side1, side2 } = studioShots.getState().shots;
      if (!frontal || !side1 || !side2) return;
      stopWatching?.();
      const totalBytes = frontal.blob.size + side1.blob.size + side2.blob.size;
      let personId: string;
      let personName: string;
      try {
        set({ phase: { name: 'uploading', personName: state.newName, sentBytes: 0, totalBytes } });
        if (state.personChoice === 'new') {
          const person = await call('people.create', { name: state.newName.trim() || 'Person' });
          personId = person.id;
          personName = person.name;
          // Retries after a failure go to the same person.
          set({ personChoice: person.id });
          void useApp.getState().loadPeople();
        } else {
          personId = state.personChoice;
          personName =
            useApp.getState().people.find((p) => p.id === personId)?.name ?? 'this person';
        }
      } catch (error) {
        set({ phase: { name: 'error', message: errorMessage(error) } });
        return;
      }
      set({ phase: { name: 'uploading', personName, sentBytes: 0, totalBytes } });

      let avatarId: string | null = null;
      const off = studio().subscribe((event) => {
        const phase = get().phase;
        if (event.type === 'upload.progress' && event.personId === personId) {
          if (phase.name === 'uploading')
            set({
              phase: {
                ...phase,
                sentBytes: event.sentBytes,
                totalBytes: event.totalBytes || phase.totalBytes,
              },
            });
        } else if (event.type === 'avatar.status' && event.personId === personId) {
          avatarId ??= event.avatarId;
          if (event.avatarId === avatarId) applyStatus(avatarId, event.status, event.failure);
        }
      });
      let timer: ReturnType<typeof setInterval> | null = null;
      stopWatching = () => {
        off();
        if (timer) clearInterval(timer);
        stopWatching = null;
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
        avatarId = summary.id;
        applyStatus(summary.id, summary.status, summary.failure);
        if (get().phase.name !== 'processing') return;
        // Events can be missed while the event channel reconnects: poll slowly as well.
        const id = summary.id;
        timer = setInterval(() => {
          call('avatars.get', { avatarId: id }).then(
            (detail) => applyStatus(id, detail.status, detail.failure),
            () => undefined,
          );
        }, 4000);
      } catch (error) {
        stopWatching?.();
        set({ phase: { name: 'error', message: errorMessage(error) } });
      }
    },
  };
});
