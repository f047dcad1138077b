/** Puts an imported file into a slot at once, then fills in its quality checks. */
import { useCallback } from 'react';
import type { PhotoSlot } from '../../shared/studio/index.js';
import { checkStill } from './check-still.js';
import type { Shot } from './photos.js';
import type { ShotsStore } from './shots-store.js';

export function useImportPhoto(store: ShotsStore): (slot: PhotoSlot, file: File) => void {
  return useCallback(
    (slot, file) => {
      const url = URL.createObjectURL(file);
      const shot: Shot = {
        slot,
        source: 'file',
        blob: file,
        url,
        name: file.name || `${slot}.jpg`,
        mimeType: file.type || 'application/octet-stream',
        checks: null,
        note: 'Checking…',
        yaw: null,
      };
      store.getState().setShot(shot);
      const side1Yaw = slot === 'side2' ? (store.getState().shots.side1?.yaw ?? null) : null;
      void checkStill(slot, file, side1Yaw).then((result) => {
        const current = store.getState().shots[slot];
        // Only if the same file is still in the slot.
        if (current?.url === url) store.getState().setShot({ ...current, ...result });
      });
    },
    [store],
  );
}
