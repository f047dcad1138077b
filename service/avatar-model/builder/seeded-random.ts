/**
 * A deterministic stream of numbers in [0, 1] from a seed, for textures
 * that must come out the same on every build (a linear congruential
 * generator; its float arithmetic is part of what the textures are).
 */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}
