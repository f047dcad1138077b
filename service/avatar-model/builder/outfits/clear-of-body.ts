import type { BodyField } from '../body-field.js';
import type { MeshBuilder } from '../mesh-builder.js';
import type { Vec3 } from '../vec3.js';

/** Step (m) of the central differences that give the field's gradient. */
const H = 0.002;
const STEPS = 3;

/**
 * Moves every vertex from `first` on that lies inside the body, or nearer its
 * skin than `gapAt` (m; or what `gapAt` gives for where the vertex lies), out
 * along the body field's gradient until it is that far outside. Hair
 * hanging from the head is laid out without the body and can reach into the
 * shoulders; skin weights cannot undo that in any pose.
 */
export function clearOfBody(
  mesh: MeshBuilder,
  first: number,
  field: BodyField,
  gapAt: number | ((p: Vec3) => number),
): void {
  for (let v = first; v < mesh.vertexCount; v++) {
    let p = mesh.position(v);
    const gap = typeof gapAt === 'number' ? gapAt : gapAt(p);
    // The field must reach past the gap, or a vertex beyond its reach looks too near and its
    // gradient (of a field that no longer changes) throws it anywhere.
    const reach = gap + 2 * H;
    const at = (q: Vec3) => field.at(q, reach);
    // A few steps: the field is a distance only near the skin, so one may fall short.
    for (let step = 0; step < STEPS; step++) {
      const d = at(p);
      if (d >= gap) break;
      const g: Vec3 = [
        at([p[0] + H, p[1], p[2]]) - at([p[0] - H, p[1], p[2]]),
        at([p[0], p[1] + H, p[2]]) - at([p[0], p[1] - H, p[2]]),
        at([p[0], p[1], p[2] + H]) - at([p[0], p[1], p[2] - H]),
      ];
      const length = Math.hypot(...g);
      if (length === 0) break;
      // Stepped as if the field were a distance: where it flattens (between blended tubes),
      // dividing by its slope could throw a vertex far; a further step makes up a shortfall.
      const push = (gap - d) / Math.max(1, length / (2 * H));
      p = [
        p[0] + (g[0] / length) * push,
        p[1] + (g[1] / length) * push,
        p[2] + (g[2] / length) * push,
      ];
    }
    mesh.setPosition(v, p);
  }
}
