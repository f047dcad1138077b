/** One radio group per asset slot, with the hair and lens colours under their slot. */
import { useId, type ReactNode } from 'react';
import { ASSET_SLOTS, type AssetSlot, type CatalogueAsset } from '../../shared/api/index.js';
import type { StoredCustomization } from '../../shared/studio/index.js';
import { AssetIcon } from './AssetIcon.js';
import { rgbaHex, splitRgba, withAsset, withAssetColour, type FieldErrors } from './draft.js';
import { FieldError } from './fields.js';
import { ASSET_SLOT_LABEL } from './labels.js';

type Change = (update: (d: StoredCustomization) => StoredCustomization) => void;

/** Used until the asset names a default: a mid brown. */
const FALLBACK_HAIR = '#5a3825';

export function AssetPicker({
  draft,
  catalogue,
  errors,
  change,
}: {
  draft: StoredCustomization;
  catalogue: readonly CatalogueAsset[];
  errors: FieldErrors;
  change: Change;
}) {
  const id = useId();
  return (
    <>
      {ASSET_SLOTS.map((slot) => (
        <SlotGroup
          key={slot}
          id={`${id}-${slot}`}
          slot={slot}
          draft={draft}
          assets={catalogue.filter((a) => a.category === slot)}
          errors={errors}
          change={change}
        />
      ))}
    </>
  );
}

function SlotGroup({
  id,
  slot,
  draft,
  assets,
  errors,
  change,
}: {
  id: string;
  slot: AssetSlot;
  draft: StoredCustomization;
  assets: readonly CatalogueAsset[];
  errors: FieldErrors;
  change: Change;
}) {
  const error = errors[slot];
  const chosen = draft.assets[slot]?.id ?? null;
  return (
    <div className="editor-group">
      <h2 className="editor-group-title" id={`${id}-title`}>
        {ASSET_SLOT_LABEL[slot]}
      </h2>
      <div
        role="radiogroup"
        aria-labelledby={`${id}-title`}
        className="asset-grid"
        {...(error ? { 'aria-describedby': `${id}-error`, 'aria-invalid': true } : {})}
      >
        {[null, ...assets].map((asset) => {
          const checked = chosen === (asset?.id ?? null);
          return (
            <label key={asset?.id ?? 'none'} className={`asset-choice${checked ? ' checked' : ''}`}>
              <input
                type="radio"
                name={`${id}-choice`}
                checked={checked}
                onChange={() => change((d) => withAsset(d, slot, asset?.id ?? null))}
                className="asset-radio"
              />
              <AssetIcon slot={slot} id={asset?.id ?? null} name={asset?.name ?? null} />
              <span>{asset?.name ?? 'None'}</span>
            </label>
          );
        })}
      </div>
      <FieldError id={`${id}-error`} error={error} />
      {slot === 'hair_and_headwear' && draft.assets.hair_and_headwear ? (
        <HairColour
          id={`${id}-hair-colour`}
          value={
            draft.assets.hair_and_headwear.color ??
            assets.find((a) => a.id === chosen)?.default_color ??
            FALLBACK_HAIR
          }
          onChange={(color) => change((d) => withAssetColour(d, 'hair_and_headwear', color))}
          error={errors.hair_color}
        />
      ) : null}
      {slot === 'eyewear' && draft.assets.eyewear ? (
        <LensColour
          id={`${id}-lens`}
          value={draft.assets.eyewear.color}
          onChange={(color) => change((d) => withAssetColour(d, 'eyewear', color))}
          error={errors.eyewear_color}
        />
      ) : null}
    </div>
  );
}

/** A labelled colour input with its error, and whatever else the colour needs beside it. */
function ColourField({
  id,
  label,
  rgb,
  onRgb,
  error,
  children,
}: {
  id: string;
  label: string;
  rgb: string;
  onRgb(rgb: string): void;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="editor-field">
      <label htmlFor={id}>{label}</label>
      <div className="editor-inline">
        <input
          id={id}
          type="color"
          value={rgb}
          onChange={(e) => onRgb(e.target.value.toLowerCase())}
          {...(error ? { 'aria-describedby': `${id}-error`, 'aria-invalid': true } : {})}
        />
        {children}
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

function HairColour({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  /** Null: the colour the service reads from the photos. */
  onChange(color: string | null): void;
  error: string | undefined;
}) {
  return (
    <ColourField id={id} label="Hair colour" rgb={value} onRgb={onChange} error={error}>
      <button type="button" className="btn ghost" onClick={() => onChange(null)}>
        From the photos
      </button>
    </ColourField>
  );
}

function LensColour({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string | null;
  onChange(color: string): void;
  error: string | undefined;
}) {
  const { rgb, alpha } = splitRgba(value);
  return (
    <ColourField
      id={id}
      label="Lens colour"
      rgb={rgb}
      onRgb={(next) => onChange(rgbaHex(next, alpha))}
      error={error}
    >
      <label htmlFor={`${id}-alpha`} className="small">
        Opacity
      </label>
      <input
        id={`${id}-alpha`}
        type="range"
        min={0}
        max={1}
        step={0.05}
        value={alpha}
        onChange={(e) => onChange(rgbaHex(rgb, Number(e.target.value)))}
      />
    </ColourField>
  );
}
