import { useEffect, useState } from 'react';
import { call } from '../store.js';

/**
 * Whether the booth runs: asked at start and again whenever the back end
 * says kiosk mode changed. 'unknown' until the first answer, so the studio
 * shell never flashes on a booth.
 */
export function useKioskMode(enabled: boolean): 'unknown' | 'on' | 'off' {
  const [mode, setMode] = useState<'unknown' | 'on' | 'off'>('unknown');
  useEffect(() => {
    if (!enabled || !window.studio) return;
    let live = true;
    const ask = () =>
      call('kiosk.state', {}).then(
        (state) => live && setMode(state.active ? 'on' : 'off'),
        // An older back end without kiosk mode: the studio.
        () => live && setMode('off'),
      );
    void ask();
    const off = window.studio.subscribe((event) => {
      if (event.type === 'kiosk.changed') void ask();
    });
    return () => {
      live = false;
      off();
    };
  }, [enabled]);
  return mode;
}
