interface Props {
  /** The clip names the GLB carries (idle, wave, walk). */
  clips: readonly string[];
  playing: string | null;
  onChange(clip: string | null): void;
}

/** Plays one of the avatar's built-in clips in the preview, or none (the T-pose). */
export function AnimationPicker({ clips, playing, onChange }: Props) {
  if (clips.length === 0) return null;
  return (
    <label className="editor-animation">
      Animation{' '}
      <select
        value={playing ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
      >
        <option value="">None (T-pose)</option>
        {clips.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
