/** A point or direction in 3-D: a plain tuple, so it crosses worker threads and JSON as is. */
export type Vec3 = [number, number, number];
