/**
 * The main window's size and position between launches. Pure apart from
 * the file: main passes Electron's displays in, so the rules are tested
 * under Node.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../service/index.js';

const Rectangle = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
});
export type Rectangle = z.infer<typeof Rectangle>;

export const WindowState = z.object({ bounds: Rectangle, maximized: z.boolean() });
export type WindowState = z.infer<typeof WindowState>;

export const MIN_SIZE = { width: 960, height: 640 } as const;
export const DEFAULT_SIZE = { width: 1280, height: 860 } as const;

/** What was saved, or null when there is nothing usable (missing, damaged, out of schema). */
export function loadWindowState(file: string): WindowState | null {
  if (!existsSync(file)) return null;
  try {
    const parsed = WindowState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Atomic: a crash while saving leaves the previous state, never half a file. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, JSON.stringify(WindowState.parse(state)));
}

function overlap(a: Rectangle, b: Rectangle): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Where the window opens. Saved bounds are kept when enough of the window
 * (its title bar included) is on a display that still exists; a monitor
 * that was unplugged or a resolution that shrank gives a centred default on
 * the primary display instead, never a window off screen.
 */
export function initialBounds(
  saved: WindowState | null,
  workAreas: readonly Rectangle[],
): { bounds: Partial<Rectangle> & { width: number; height: number }; maximized: boolean } {
  const primary = workAreas[0];
  const fallbackSize = {
    width: Math.min(DEFAULT_SIZE.width, primary?.width ?? DEFAULT_SIZE.width),
    height: Math.min(DEFAULT_SIZE.height, primary?.height ?? DEFAULT_SIZE.height),
  };
  if (!saved) return { bounds: fallbackSize, maximized: false };
  const b = saved.bounds;
  const titleBar: Rectangle = { x: b.x, y: b.y, width: b.width, height: Math.min(40, b.height) };
  const home = workAreas.find(
    (area) => overlap(titleBar, area) >= Math.min(titleBar.width, 200) * 20,
  );
  if (!home) return { bounds: fallbackSize, maximized: saved.maximized };
  return {
    bounds: {
      x: b.x,
      y: b.y,
      width: Math.max(MIN_SIZE.width, Math.min(b.width, home.width)),
      height: Math.max(MIN_SIZE.height, Math.min(b.height, home.height)),
    },
    maximized: saved.maximized,
  };
}
