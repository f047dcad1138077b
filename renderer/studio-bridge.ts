import type { StudioBridge } from '../shared/studio/index.js';

declare global {
  interface Window {
    /** Set by the Electron preload, or by the web transport before the app mounts. */
    studio?: StudioBridge;
  }
}

/** The one way the UI reaches the back end. */
export function studio(): StudioBridge {
  if (!window.studio) throw new Error('The studio bridge is missing.');
  return window.studio;
}
