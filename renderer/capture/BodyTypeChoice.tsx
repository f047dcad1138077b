/** The body type the photos are for. */
import { useId } from 'react';

export function BodyTypeChoice({
  value,
  disabled,
  onChange,
}: {
  value: 'male' | 'female';
  disabled: boolean;
  onChange(value: 'male' | 'female'): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <span className="field-label" id={`${id}-body`}>
        Body type
      </span>
      <div role="radiogroup" aria-labelledby={`${id}-body`} className="segmented">
        {(['male', 'female'] as const).map((option) => (
          <label key={option} className="segment">
            <input
              type="radio"
              name={`${id}-bodytype`}
              value={option}
              checked={value === option}
              disabled={disabled}
              onChange={() => onChange(option)}
            />
            <span>{option === 'male' ? 'Male' : 'Female'}</span>
          </label>
        ))}
      </div>
    </div>
  );
}
