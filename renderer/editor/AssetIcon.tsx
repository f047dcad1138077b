import type { AssetSlot } from '../../shared/api/index.js';
import { assetPreviewDataUrl } from '../../shared/assets/asset-previews.js';

/**
 * A small thumbnail for a catalogue asset: the built-in catalogue's rendered
 * preview, or for another catalogue (the API's carries no images) a glyph
 * chosen from words in the asset's name, one per slot for names it does not know.
 */
type Glyph = { match: RegExp; path: string };

const GLYPHS: Record<AssetSlot, Glyph[]> = {
  clothing: [
    { match: /hood/i, path: 'M14 10l8-4h4l8 4 8 8-6 6-4-3v21H12V21l-4 3-6-6zM20 6c0 6 8 6 8 0' },
    { match: /jersey|sleeveless|tank/i, path: 'M16 6h4c0 4 8 4 8 0h4l2 10v26H14V16z' },
    {
      match: /shirt|button|collar/i,
      path: 'M14 8l6-3 4 5 4-5 6 3 8 8-6 6-3-3v23H15V19l-3 3-6-6zM24 10v32',
    },
    { match: /.*/, path: 'M14 8l6-3c0 4 8 4 8 0l6 3 8 8-6 6-3-3v23H15V19l-3 3-6-6z' },
  ],
  hair_and_headwear: [
    { match: /cap/i, path: 'M8 30c0-10 7-18 16-18s16 8 16 18zM40 30h6v4H8' },
    {
      match: /beanie|hat/i,
      path: 'M8 32c0-12 7-20 16-20s16 8 16 20zM6 32h36v6H6zM24 6a3 3 0 1 1 0 6',
    },
    {
      match: /long/i,
      path: 'M10 42V22c0-9 6-15 14-15s14 6 14 15v20h-6V24c-4 0-10-2-12-6-2 4-4 6-4 6v18z',
    },
    {
      match: /curl|bob/i,
      path: 'M10 32c-4-6-2-16 4-20 4-4 16-4 20 0 6 4 8 14 4 20-2-6-4-8-4-12-6 2-14 2-20 0 0 4-2 6-4 12z',
    },
    {
      match: /.*/,
      path: 'M10 26c0-11 6-17 14-17s14 6 14 17c-2-4-4-6-6-7-6 2-12 2-16 0-2 1-4 3-6 7z',
    },
  ],
  eyewear: [
    {
      match: /aviator|sun/i,
      path: 'M4 18h40M8 18c0 10 4 12 8 12s6-4 6-12M26 18c0 8 2 12 6 12s8-2 8-12',
    },
    { match: /rect|square/i, path: 'M4 20h4M40 20h4M8 16h12v10H8zM28 16h12v10H28zM20 20h8' },
    {
      match: /.*/,
      path: 'M4 20h4M40 20h4M14 14a7 7 0 1 1 0 14a7 7 0 1 1 0-14M34 14a7 7 0 1 1 0 14a7 7 0 1 1 0-14M21 21h6',
    },
  ],
  footwear: [
    { match: /boot/i, path: 'M14 6h12v22l14 6v8H10V10z' },
    { match: /loafer|shoe|oxford/i, path: 'M6 34c0-4 4-6 10-6 8 0 12-4 18-4 6 0 8 4 8 10v4H6z' },
    { match: /.*/, path: 'M6 36c0-6 2-12 6-14l6 4 6-6c6 4 12 6 18 8 2 2 2 6 2 8v2H6zM6 38h38' },
  ],
};

export function glyphFor(slot: AssetSlot, name: string | null): string | null {
  if (name === null) return null;
  return GLYPHS[slot].find((g) => g.match.test(name))?.path ?? null;
}

/** The asset's rendered preview where the built-in catalogue has one, else a drawn glyph. */
export function AssetIcon({
  slot,
  id,
  name,
}: {
  slot: AssetSlot;
  id: string | null;
  name: string | null;
}) {
  const preview = id === null ? null : assetPreviewDataUrl(id);
  if (preview) return <img className="asset-icon asset-preview" src={preview} alt="" />;
  const path = glyphFor(slot, name);
  return (
    <svg className="asset-icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      {path ? (
        <path
          d={path}
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      ) : (
        // "None": an empty slot.
        <path
          d="M12 12l24 24M36 12L12 36"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          opacity="0.5"
        />
      )}
    </svg>
  );
}
