/**
 * Key/value metadata. The rows are edited locally (a half-typed pair is not
 * yet valid) and reach the draft only when all of them meet the spec's limits.
 */
import { useId, useState } from 'react';
import {
  METADATA_MAX_KEY_LENGTH,
  METADATA_MAX_PAIRS,
  METADATA_MAX_VALUE_LENGTH,
} from '../../shared/api/index.js';
import type { StoredCustomization } from '../../shared/studio/index.js';
import { metadataProblem, type FieldErrors } from './draft.js';
import { FieldError } from './fields.js';

type Pair = { key: string; value: string };

export function MetadataEditor({
  initial,
  error,
  change,
  setErrors,
}: {
  /** The metadata when the editor opened; the rows are this component's own from then on. */
  initial: Record<string, string>;
  error: string | undefined;
  change(update: (d: StoredCustomization) => StoredCustomization): void;
  setErrors(update: (errors: FieldErrors) => FieldErrors): void;
}) {
  const id = useId();
  const [pairs, setPairs] = useState<Pair[]>(() =>
    Object.entries(initial).map(([key, value]) => ({ key, value })),
  );
  const commit = (next: Pair[]) => {
    setPairs(next);
    const problem = metadataProblem(next);
    setErrors((e) => ({ ...e, metadata: problem ?? undefined }));
    if (!problem)
      change((d) => ({ ...d, metadata: Object.fromEntries(next.map((p) => [p.key, p.value])) }));
  };
  return (
    <div className="editor-group">
      <h2 className="editor-group-title">Metadata</h2>
      {pairs.map((pair, i) => (
        <div className="editor-inline" key={i}>
          {(['key', 'value'] as const).map((part) => (
            <input
              key={part}
              aria-label={`Metadata ${part} ${i + 1}`}
              value={pair[part]}
              maxLength={part === 'key' ? METADATA_MAX_KEY_LENGTH : METADATA_MAX_VALUE_LENGTH}
              onChange={(e) =>
                commit(pairs.map((p, j) => (j === i ? { ...p, [part]: e.target.value } : p)))
              }
            />
          ))}
          <button
            type="button"
            className="btn ghost"
            aria-label={`Remove metadata pair ${i + 1}`}
            onClick={() => commit(pairs.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn ghost"
        disabled={pairs.length >= METADATA_MAX_PAIRS}
        onClick={() => setPairs([...pairs, { key: '', value: '' }])}
      >
        Add a pair
      </button>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
