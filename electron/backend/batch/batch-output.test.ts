import { describe, expect, it } from 'vitest';
import { csvField, personDir, renderFileName } from './batch-output.js';

describe('batch output', () => {
  it('quotes CSV fields that need it and defuses spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(null)).toBe('');
  });
  it('keeps a person inside the output folder', () => {
    expect(personDir('/out', 'alice')).toBe('/out/alice');
    expect(() => personDir('/out', '..')).toThrow();
    expect(() => personDir('/out', 'a/b')).toThrow();
  });
  it('names render files from safe characters only', () => {
    expect(renderFileName({ scene: 'common/preview', format: 'png' })).toBe(
      'render-common_preview.png',
    );
  });
});
