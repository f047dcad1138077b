import { describe, expect, it } from 'vitest';
import { bodyTemplate } from '../body-template.js';
import { MeshBuilder, smoothNormals } from '../mesh-builder.js';
import { addScaled, distance, type Vec3 } from '../vec3.js';
import { clearOfBody } from './clear-of-body.js';

describe('clearing hair off the body', () => {
  const t = bodyTemplate('body_1', 'adult');
  const normals = smoothNormals(t.body.positions, t.body.indices, false);
  /** Body vertices round the back of the neck and the shoulders: where long hair lies. */
  const skin = Array.from({ length: t.body.vertexCount }, (_, v) => v).filter((v) => {
    const [x, y, z] = t.body.position(v);
    return z < -0.03 && y > t.proportions.neckBaseY - 0.08 && Math.abs(x) < 0.15;
  });
  const off = (v: number, by: number): Vec3 =>
    addScaled(t.body.position(v), [normals[3 * v]!, normals[3 * v + 1]!, normals[3 * v + 2]!], by);
  const GAP = 0.03;

  it('moves points nearer the skin than a gap wider than 2 cm out to it, and no further', () => {
    expect(skin.length).toBeGreaterThan(20);
    // From inside the body, on the skin, and 2.2 cm out: past the field's default reach,
    // where it reads a constant and its gradient pointed anywhere.
    for (const start of [-0.01, 0, 0.022]) {
      const mesh = new MeshBuilder();
      for (const v of skin) mesh.vertex(off(v, start));
      clearOfBody(mesh, 0, t.field, GAP);
      skin.forEach((v, i) => {
        const p = mesh.position(i);
        expect(t.field.at(p, 0.05), `${start} at ${p.join()}`).toBeGreaterThan(GAP - 0.002);
        expect(distance(p, off(v, start)), `${start} at ${p.join()}`).toBeLessThan(
          GAP - start + 0.015,
        );
      });
    }
  });

  it('leaves points already clear where they are', () => {
    // 4 cm out along a vertex's normal, but only those the gap clears: in the hollow between
    // neck and shoulder such a point can lie nearer some other skin (by micrometres when the
    // grid shifted with the forearm's cut).
    const clear = skin.filter((v) => t.field.at(off(v, 0.04), 0.05) >= GAP);
    expect(clear.length).toBeGreaterThan(0.8 * skin.length);
    const mesh = new MeshBuilder();
    for (const v of clear) mesh.vertex(off(v, 0.04));
    clearOfBody(mesh, 0, t.field, GAP);
    clear.forEach((v, i) => expect(mesh.position(i)).toEqual(off(v, 0.04)));
  });
});
