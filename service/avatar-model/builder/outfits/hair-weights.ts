import type { MeshBuilder } from '../mesh-builder.js';
import type { Proportions } from '../proportions.js';
import { boneIndex } from '../skeleton.js';
import { smoothstep } from '../vec3.js';

/**
 * Skins hair (vertices from `first` on) by height rather than by distance to
 * the bones: what grows above the jaw turns with the head, what lies on the
 * shoulders and back stays with the chest, and the length between shares
 * the neck. Hair that followed the head all the way down would swing into
 * the shoulders whenever the head turns; hair that followed the neck down to
 * its base would swing into the trapezius, so the chest takes it from there.
 */
export function skinHairByHeight(mesh: MeshBuilder, first: number, p: Proportions): void {
  const head = boneIndex('Head');
  const neck = boneIndex('Neck');
  const chest = boneIndex('Spine2');
  for (let v = first; v < mesh.vertexCount; v++) {
    const y = mesh.position(v)[1];
    const onHead = smoothstep(p.chinY - 0.02, p.chinY + 0.04, y);
    const onChest = 1 - smoothstep(p.neckBaseY - 0.01, p.neckBaseY + 0.05, y);
    const onNeck = Math.max(0, 1 - onHead - onChest);
    const ranked = [
      { joint: head, w: onHead },
      { joint: neck, w: onNeck },
      { joint: chest, w: onChest },
    ]
      .filter((r) => r.w > 0.01)
      .sort((a, b) => b.w - a.w);
    const sum = ranked.reduce((s, r) => s + r.w, 0);
    mesh.setInfluences(
      v,
      ranked.map((r) => r.joint),
      ranked.map((r) => r.w / sum),
    );
  }
}
