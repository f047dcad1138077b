import type { BodyField } from '../body-field.js';
import type { MeshBuilder } from '../mesh-builder.js';
import type { Vec3 } from '../vec3.js';

/** Step (m) of the central differences that give the field's gradient. */
const H = 0.002;

/**
 * Moves every vertex from `first` on that lies inside the body, or nearer its
 * skin than `gap` (m), out along the body field's gradient until it is `gap`
 * outside. Hair hanging from the head is laid out without the body and can
 * reach into the shoulders; skin weights cannot undo that in any pose.
 */
export function clearOfBody(mesh: MeshBuilder, first: number, field: BodyField, gap: number): void {
  for (let v = first; v < mesh.vertexCount; v++) {
    let p = mesh.position(v);
    // Two steps: the field is a distance only near the skin, so one may fall short.
    for (let step = 0; step < 2; step++) {
      const d = field.at(p);
      if (d >= gap) break;
      const g: Vec3 = [
        field.at([p[0] + H, p[1], p[2]]) - field.at([p[0] - H, p[1], p[2]]),
        field.at([p[0], p[1] + H, p[2]]) - field.at([p[0], p[1] - H, p[2]]),
        field.at([p[0], p[1], p[2] + H]) - field.at([p[0], p[1], p[2] - H]),
      ];
      const length = Math.hypot(...g);
      if (length === 0) break;
      const push = (gap - d) / (length / (2 * H));
      p = [
        p[0] + (g[0] / length) * push,
        p[1] + (g[1] / length) * push,
        p[2] + (g[2] / length) * push,
      ];
    }
    mesh.setPosition(v, p);
  }
}
