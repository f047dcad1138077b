/** Body shape, age, bone scales, skin tone and eye colour. */
import { AGE_GROUPS, BODY_SHAPES, EYE_TEXTURES } from '../../shared/api/index.js';
import { EYE_COLOURS } from '../../shared/appearance/eye-colours.js';
import type { StoredCustomization } from '../../shared/studio/index.js';
import type { FieldErrors } from './draft.js';
import { RangeField, SelectField } from './fields.js';
import { AGE_NAMES, BODY_NAMES, pretty } from './labels.js';

export const BONES = ['head', 'arms', 'chest'] as const;

export function BodyControls({
  draft,
  errors,
  change,
}: {
  draft: StoredCustomization;
  errors: FieldErrors;
  change(update: (d: StoredCustomization) => StoredCustomization): void;
}) {
  return (
    <div className="editor-group">
      <h2 className="editor-group-title">Body and face</h2>
      <SelectField
        label="Body"
        value={draft.body}
        options={BODY_SHAPES}
        optionName={(b) => BODY_NAMES[b]}
        onChange={(body) => change((d) => ({ ...d, body }))}
        error={errors.body}
      />
      <SelectField
        label="Age"
        value={draft.age}
        options={AGE_GROUPS}
        optionName={(a) => AGE_NAMES[a]}
        onChange={(age) => change((d) => ({ ...d, age }))}
        error={errors.age}
      />
      {BONES.map((key) => (
        <RangeField
          key={key}
          label={`${pretty(key)} scale`}
          min={-0.5}
          max={0.5}
          step={0.05}
          value={draft.bone_scale[key]}
          onChange={(v) => change((d) => ({ ...d, bone_scale: { ...d.bone_scale, [key]: v } }))}
          error={errors[key]}
        />
      ))}
      <RangeField
        label="Skin tone"
        min={-1}
        max={1}
        step={0.05}
        value={draft.skin_tone_correction}
        onChange={(v) => change((d) => ({ ...d, skin_tone_correction: v }))}
        error={errors.skin_tone_correction}
      />
      <SelectField
        label="Eye colour"
        value={draft.eye_texture}
        options={EYE_TEXTURES}
        optionName={pretty}
        onChange={(eye_texture) => change((d) => ({ ...d, eye_texture }))}
        error={errors.eye_texture}
        adornment={
          <span
            className="swatch"
            style={{ background: EYE_COLOURS[draft.eye_texture].iris }}
            aria-hidden="true"
          />
        }
      />
    </div>
  );
}
