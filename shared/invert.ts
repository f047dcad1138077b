/** The reverse of a one-to-one map, so that a two-way map is written down once. */
export function invert<K extends string, V extends string>(
  map: Readonly<Record<K, V>>,
): Readonly<Record<V, K>> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [value, key])) as Record<
    V,
    K
  >;
}
