import { coincidentVertices } from './mesh-builder.js';

/**
 * Over-relaxation of the Gauss-Seidel sweeps: about 1.9 carries a value
 * across a region some tens of edges wide in about a hundred sweeps (the
 * head's membrane), where plain sweeps need thousands.
 */
const RELAXATION = 1.9;
/** Sweeps at most, whatever `settled` asks. */
const MAX_SWEEPS = 1000;

/**
 * Per-vertex values spread smoothly over a triangle mesh, as a stretched
 * membrane: each vertex settles at the mean of its neighbours, pulled towards
 * its own target in proportion to its weight. Where the weights are large
 * the targets hold; where they are 0 the values interpolate what surrounds
 * them, with no edge anywhere. Vertices at one place (copies for a UV seam)
 * are one vertex of the membrane and get one value.
 *
 * `targets` holds `channels` values per vertex; `weights` one per vertex
 * (0 for none). A part of the mesh that no weighted vertex reaches keeps the
 * targets' weighted mean, or `initial` where nothing is weighted at all.
 * Sweeps go on until none moves a value by `settled` or more.
 */
export function membrane(
  indices: ArrayLike<number>,
  positions: ArrayLike<number>,
  targets: Float32Array,
  weights: Float32Array,
  channels: number,
  initial: ArrayLike<number>,
  settled: number,
): Float32Array {
  const count = positions.length / 3;
  const slot = coincidentVertices(positions);
  // One unknown per place: its weight and weighted target summed over its copies.
  const weight = new Float64Array(count);
  const pull = new Float64Array(count * channels);
  for (let v = 0; v < count; v++) {
    const s = slot[v]!;
    const w = weights[v]!;
    if (!(w > 0)) continue;
    weight[s]! += w;
    for (let c = 0; c < channels; c++) pull[s * channels + c]! += w * targets[v * channels + c]!;
  }
  const { start, neighbours } = edgesOf(indices, slot, count);
  // Started from the weighted mean of the targets, so far-off vertices begin near their answer.
  const value = new Float64Array(count * channels);
  const mean = new Float64Array(channels);
  let total = 0;
  for (let s = 0; s < count; s++) {
    total += weight[s]!;
    for (let c = 0; c < channels; c++) mean[c]! += pull[s * channels + c]!;
  }
  for (let c = 0; c < channels; c++) mean[c] = total > 0 ? mean[c]! / total : initial[c]!;
  for (let s = 0; s < count; s++) {
    for (let c = 0; c < channels; c++) value[s * channels + c] = mean[c]!;
  }
  for (let sweep = 0, moved = Infinity; sweep < MAX_SWEEPS && moved >= settled; sweep++) {
    moved = 0;
    for (let s = 0; s < count; s++) {
      const from = start[s]!;
      const to = start[s + 1]!;
      const degree = to - from;
      const denominator = degree + weight[s]!;
      // A vertex of no triangle (or of none but degenerate ones) with no weight keeps its value.
      if (denominator === 0) continue;
      for (let c = 0; c < channels; c++) {
        let sum = pull[s * channels + c]!;
        for (let e = from; e < to; e++) sum += value[neighbours[e]! * channels + c]!;
        const i = s * channels + c;
        const step = RELAXATION * (sum / denominator - value[i]!);
        value[i] = value[i]! + step;
        moved = Math.max(moved, Math.abs(step));
      }
    }
  }
  const out = new Float32Array(count * channels);
  for (let v = 0; v < count; v++) {
    for (let c = 0; c < channels; c++) out[v * channels + c] = value[slot[v]! * channels + c]!;
  }
  return out;
}

/** Each place's neighbouring places along the mesh's edges, as compressed rows. */
function edgesOf(
  indices: ArrayLike<number>,
  slot: Int32Array,
  count: number,
): { start: Int32Array; neighbours: Int32Array } {
  const seen = new Set<number>();
  const pairs: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = slot[indices[t + k]!]!;
      const b = slot[indices[t + ((k + 1) % 3)]!]!;
      if (a === b) continue;
      const key = a < b ? a * count + b : b * count + a;
      if (seen.has(key)) continue;
      seen.add(key);
      pairs.push(a, b);
    }
  }
  const degree = new Int32Array(count + 1);
  for (const p of pairs) degree[p + 1]!++;
  for (let s = 0; s < count; s++) degree[s + 1]! += degree[s]!;
  const start = Int32Array.from(degree);
  const fill = Int32Array.from(degree);
  const neighbours = new Int32Array(pairs.length);
  for (let i = 0; i < pairs.length; i += 2) {
    const a = pairs[i]!;
    const b = pairs[i + 1]!;
    neighbours[fill[a]!++] = b;
    neighbours[fill[b]!++] = a;
  }
  return { start, neighbours };
}
