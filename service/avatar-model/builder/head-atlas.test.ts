import { describe, expect, it } from 'vitest';
import { buildAvatar } from './build-avatar.js';
import { headAtlasSize } from './head-builder.js';
import { build, customize, mesh, sharperInput, validate } from './test-support.js';
import { writeGlb } from './write-glb.js';

/** The same photo series as if shot at `factor` times the resolution. */
async function sharper(factor: number) {
  return buildAvatar(await sharperInput('person-a', factor, customize()));
}

describe('the head texture', () => {
  it('is as large as the photographed face needs, up to 2048²', () => {
    expect(headAtlasSize(300)).toBe(1024);
    expect(headAtlasSize(1000)).toBe(2048);
    expect(headAtlasSize(5000)).toBe(2048);
  });

  it('is 1024² from the 1024² fixture photos and 2048² from the same people shot sharper, within the file budget', async () => {
    const plain = mesh(await build('person-a'), 'Head').material.texture!;
    expect([plain.width, plain.height]).toEqual([1024, 1024]);
    const model = await sharper(2.5);
    const texture = mesh(model, 'Head').material.texture!;
    expect([texture.width, texture.height]).toEqual([2048, 2048]);
    const glb = await writeGlb(model);
    expect(glb.byteLength).toBeLessThanOrEqual(8_000_000);
    const report = await validate(glb);
    expect(report.issues.numErrors).toBe(0);
    expect(report.issues.numWarnings).toBe(0);
  });
});
