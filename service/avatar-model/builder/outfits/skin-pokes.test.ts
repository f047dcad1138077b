import { describe, expect, it } from 'vitest';
import { garmentCover, pokesThrough, type TriangleSoup } from './skin-pokes.js';

/** A square sheet of cloth 10 cm across at height z, facing +z (two triangles). */
function sheet(z: number): TriangleSoup {
  return {
    positions: [-0.05, -0.05, z, 0.05, -0.05, z, 0.05, 0.05, z, -0.05, 0.05, z],
    indices: [0, 1, 2, 0, 2, 3],
  };
}

describe('the skin-through-cloth measure', () => {
  it('counts skin under the cloth as covered, and measures how far it later comes out', () => {
    const cloth = sheet(0);
    const cover = garmentCover([0, 0, -0.01, 0.2, 0, -0.01], cloth);
    // The second point lies beside the sheet, not under it.
    expect([...cover.vertices]).toEqual([0]);
    expect(pokesThrough(cover, [0.01, 0, -0.004], cloth).depth[0]).toBe(0);
    const out = pokesThrough(cover, [0.01, 0, 0.005], cloth);
    expect(out.depth[0]).toBeCloseTo(0.005, 6);
    expect([...out.normal]).toEqual([0, 0, 1]);
  });

  it('counts skin under any layer as covered: a sleeve over the side of a shirt', () => {
    const inner = sheet(0);
    const outer = sheet(0.02);
    const both: TriangleSoup = {
      positions: [...(inner.positions as number[]), ...(outer.positions as number[])],
      indices: [...(inner.indices as number[]), ...(outer.indices as number[]).map((i) => i + 4)],
    };
    const cover = garmentCover([0, 0, -0.01], both);
    // Out through the inner layer by 5 mm, still 15 mm under the outer one.
    expect(pokesThrough(cover, [0, 0, 0.005], both).depth[0]).toBe(0);
    // Out through both.
    expect(pokesThrough(cover, [0, 0, 0.025], both).depth[0]).toBeCloseTo(0.005, 6);
  });

  it('given the skin normals, counts skin as covered when its normal leaves through the cloth', () => {
    // A valley along y: its faces rise at 45° either side of x = 0, facing up and in.
    const valley: TriangleSoup = {
      positions: [
        ...[-0.05, -0.05, 0.05, 0, -0.05, 0, 0, 0.05, 0, -0.05, 0.05, 0.05],
        ...[0.05, -0.05, 0.05, 0.05, 0.05, 0.05],
      ],
      indices: [0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 2],
    };
    // Skin just under the valley floor projects onto neither face's side of the fold, yet
    // its normal leaves through the cloth 4 mm up.
    const skin = [0.001, 0, -0.003];
    const up = [0, 0, 1];
    expect(garmentCover(skin, valley).vertices.length).toBe(0);
    expect([...garmentCover(skin, valley, up).vertices]).toEqual([0]);
    // Skin beside the cloth, its normal missing it, stays bare; so does skin over it.
    expect(garmentCover([0.2, 0, -0.01], valley, up).vertices.length).toBe(0);
    expect(garmentCover([0, 0, 0.01], valley, up).vertices.length).toBe(0);
  });

  it('sees skin in the wedge under a crease that folds in as covered, as the cloth lies over it', () => {
    // A valley along y: its faces rise at 45° either side of x = 0, facing up and in. Beside
    // it, 3 cm off, stands another piece of cloth facing it (the chest beside an arm).
    const cloth: TriangleSoup = {
      positions: [
        ...[-0.05, -0.05, 0.05, 0, -0.05, 0, 0, 0.05, 0, -0.05, 0.05, 0.05],
        ...[0.05, -0.05, 0.05, 0.05, 0.05, 0.05],
        ...[-0.03, -0.05, -0.05, -0.03, 0.05, -0.05, -0.03, 0.05, 0.02, -0.03, -0.05, 0.02],
      ],
      indices: [0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 2, 6, 7, 8, 6, 8, 9],
    };
    const cover = garmentCover([0.005, 0, 0.001], cloth);
    expect(cover.vertices.length).toBe(1);
    // Moved to 3 mm straight under the fold line, its projection onto either face's plane
    // falls just outside that face, on the other side of the fold; only the other piece's
    // face lies square to it, and it is on that one's outer side. Still it is under the valley.
    expect(pokesThrough(cover, [0, 0, -0.003], cloth).depth[0]).toBe(0);
    // Come up through the valley floor, it is out.
    expect(pokesThrough(cover, [0, 0, 0.004], cloth).depth[0]).toBeGreaterThan(0.002);
  });
});
