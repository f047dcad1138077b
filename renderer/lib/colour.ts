/** Hex colour helpers (`#rrggbb`), shared by the capture, library and settings screens. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

export function isHexColour(value: string): boolean {
  return HEX.test(value.trim());
}

/** `#ABC`, `abc`, `#aabbcc` → `#aabbcc`; null when it is not a hex colour. */
export function normaliseHex(value: string): string | null {
  const m = HEX.exec(value.trim());
  if (!m) return null;
  const digits = m[1]!.toLowerCase();
  const full = digits.length === 3 ? [...digits].map((c) => c + c).join('') : digits;
  return `#${full}`;
}

export function hexToRgb(value: string): Rgb | null {
  const hex = normaliseHex(value);
  if (!hex) return null;
  const n = Number.parseInt(hex.slice(1), 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

const clampByte = (v: number) => Math.min(255, Math.max(0, Math.round(v)));

export function rgbToHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((v) => clampByte(v).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance, 0..1. */
export function luminance(rgb: Rgb): number {
  const lin = (v: number) => {
    const s = clampByte(v) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(rgb.r) + 0.7152 * lin(rgb.g) + 0.0722 * lin(rgb.b);
}

/** Black or white, whichever reads better on the given background. */
export function readableTextOn(background: string): '#000000' | '#ffffff' {
  const rgb = hexToRgb(background);
  if (!rgb) return '#000000';
  return luminance(rgb) > 0.179 ? '#000000' : '#ffffff';
}
