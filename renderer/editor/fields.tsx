/**
 * Labelled controls of the editor. Each names itself with exactly its label
 * (the value shown beside a slider stays out of the accessible name) and
 * shows its own error right under it, tied to it with aria-describedby.
 */
import { useId, type ReactNode } from 'react';

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p className="field-error" id={id} role="alert">
      {error}
    </p>
  ) : null;
}

function invalid(errorId: string, error: string | undefined) {
  return error ? { 'aria-describedby': errorId, 'aria-invalid': true } : {};
}

export function SelectField<T extends string>(props: {
  label: string;
  value: T;
  options: readonly T[];
  optionName: (value: T) => string;
  onChange: (value: T) => void;
  error?: string | undefined;
  /** Shown before the select, such as a colour swatch. */
  adornment?: ReactNode;
}) {
  const id = useId();
  const select = (
    <select
      id={id}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value as T)}
      {...invalid(`${id}-error`, props.error)}
    >
      {props.options.map((option) => (
        <option key={option} value={option}>
          {props.optionName(option)}
        </option>
      ))}
    </select>
  );
  return (
    <div className="editor-field">
      <label htmlFor={id}>{props.label}</label>
      {props.adornment ? (
        <div className="editor-inline">
          {props.adornment}
          {select}
        </div>
      ) : (
        select
      )}
      <FieldError id={`${id}-error`} error={props.error} />
    </div>
  );
}

export function RangeField(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div className="editor-field">
      <div className="editor-field-head">
        <label htmlFor={id}>{props.label}</label>
        {/* The slider announces its own value; this is for the eye. */}
        <span className="muted" aria-hidden="true">
          {props.value.toFixed(2)}
        </span>
      </div>
      <input
        id={id}
        type="range"
        min={props.min}
        max={props.max}
        step={props.step}
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
        {...invalid(`${id}-error`, props.error)}
      />
      <FieldError id={`${id}-error`} error={props.error} />
    </div>
  );
}
