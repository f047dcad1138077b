import { describe, expect, it } from 'vitest';
import { hexToRgb, isHexColour, normaliseHex, readableTextOn, rgbToHex } from './colour.js';

describe('hex colour helpers', () => {
  it('normalises short and long forms', () => {
    expect(normaliseHex('#ABC')).toBe('#aabbcc');
    expect(normaliseHex(' a1B2c3 ')).toBe('#a1b2c3');
    expect(normaliseHex('#abcd')).toBeNull();
    expect(normaliseHex('red')).toBeNull();
    expect(isHexColour('#123456')).toBe(true);
  });
  it('converts both ways and clamps', () => {
    expect(hexToRgb('#ff8000')).toEqual({ r: 255, g: 128, b: 0 });
    expect(rgbToHex({ r: 255, g: 128, b: 0 })).toBe('#ff8000');
    expect(rgbToHex({ r: 300, g: -4, b: 15.6 })).toBe('#ff0010');
    expect(hexToRgb('nope')).toBeNull();
  });
  it('picks readable text', () => {
    expect(readableTextOn('#ffffff')).toBe('#000000');
    expect(readableTextOn('#101010')).toBe('#ffffff');
  });
});
