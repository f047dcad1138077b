import type { MeshBuilder } from '../mesh-builder.js';
import { nearestVertexIndex } from '../nearest-vertex.js';
import type { Proportions } from '../proportions.js';
import { boneIndex } from '../skeleton.js';
import { blendedInfluences } from '../skin-weights.js';
import { distance, smoothstep, type Vec3 } from '../vec3.js';

/** The jaw, in model space: the chin's point and the jaw's angles either side. */
export interface Jaw {
  chin: Vec3;
  angles: readonly [Vec3, Vec3];
}

/**
 * Skins hair (vertices from `first` on) by height rather than by distance to
 * the bones: what grows above the jaw turns with the head; below it, what
 * lies on the skin (within LIES_ON) takes the weights of the skin under it,
 * and what hangs free shares the neck and, lower down, the chest. Hair that
 * followed the head all the way down would swing into the shoulders whenever
 * the head turns; hair weighted by height alone lets the skin rise through
 * it, as the shoulders do when the arms come down.
 */
export function skinHairByHeight(
  mesh: MeshBuilder,
  first: number,
  p: Proportions,
  body: MeshBuilder,
  jaw: Jaw,
): void {
  const head = boneIndex('Head');
  const neck = boneIndex('Neck');
  const skin = skinLookup(body);
  for (let v = first; v < mesh.vertexCount; v++) {
    const q = mesh.position(v);
    const jawY = jawHeight(jaw, p.chinY, q);
    const onHead = smoothstep(jawY - 0.02, jawY + 0.04, q[1]);
    const onChest = 1 - smoothstep(p.neckBaseY - 0.01, p.neckBaseY + 0.05, q[1]);
    const onNeck = Math.max(0, 1 - onHead - onChest);
    const under = onHead < 1 ? skin(q) : -1;
    // Fading in over the last centimetres, so hair lying on the skin and hair hanging free
    // next to it do not part in a pose.
    const lying =
      under < 0 ? 0 : 1 - smoothstep(LIES_ON / 2, LIES_ON, distance(q, body.position(under)));
    const shares = new Map<number, number>([[head, onHead]]);
    const add = (joint: number, w: number) => shares.set(joint, (shares.get(joint) ?? 0) + w);
    if (lying > 0) {
      for (const r of blendedInfluences(body, [[under, 1]]))
        add(r.joint, lying * (1 - onHead) * r.w);
    }
    add(neck, (1 - lying) * onNeck);
    add(CHEST, (1 - lying) * onChest);
    const ranked = [...shares]
      .map(([joint, w]) => ({ joint, w }))
      .filter((r) => r.w > 0.01)
      .sort((a, b) => b.w - a.w)
      .slice(0, 4);
    const sum = ranked.reduce((s, r) => s + r.w, 0);
    mesh.setInfluences(
      v,
      ranked.map((r) => r.joint),
      ranked.map((r) => r.w / sum),
    );
  }
}

/**
 * The jaw line's height over the point q, seen from above: the chin's
 * (`chinY`) in front, rising to the jaw's angles' at the sides and staying
 * there behind. Measured from the chin alone, hair hanging beside the neck
 * at chin height, 3 cm under the jaw's angle, turned half with the head and
 * swung 3 cm forwards into the hoodie's cowl (16–29 mm deep, on broad
 * bodies and on heads narrower or longer than the fixtures').
 */
function jawHeight(jaw: Jaw, chinY: number, q: Vec3): number {
  const [a, b] = jaw.angles;
  const centre = [(a[0] + b[0]) / 2, (a[2] + b[2]) / 2] as const;
  const azimuth = Math.abs(Math.atan2(q[0] - centre[0], q[2] - centre[1]));
  const rise = (a[1] + b[1]) / 2 - jaw.chin[1];
  return chinY + rise * smoothstep(0, Math.PI / 2, azimuth);
}

const CHEST = boneIndex('Spine2');
/** How near (m) the skin must be for hair to count as lying on it. */
const LIES_ON = 0.05;

/** The body is shared by every build of its shape and age: its lookup is made once. */
const lookups = new WeakMap<MeshBuilder, (p: Vec3) => number>();

function skinLookup(body: MeshBuilder): (p: Vec3) => number {
  let lookup = lookups.get(body);
  if (!lookup) {
    lookup = nearestVertexIndex(body, LIES_ON);
    lookups.set(body, lookup);
  }
  return lookup;
}
