import { INNER_LIP_BOTTOM, INNER_LIP_TOP } from './face-rig/landmark-groups.js';
import { hexMaterial } from './materials.js';
import { MeshBuilder } from './mesh-builder.js';
import type { Part } from './part.js';
import { add, distance, scale, type Vec3 } from './vec3.js';

const CAVITY_RINGS = 8;
/**
 * Lips photographed nearer together than this (mm on a 12 cm face) are
 * closed: the landmarks leave a sliver between closed lips, through which
 * the teeth behind them would show as a white line the photo does not have.
 * The fixtures' closed lips read up to 1.6 mm apart (processing's two looks
 * at the face), and up to 1.8 mm with their photos stretched; lips parted
 * enough to show teeth are 3 mm apart or more.
 */
const CLOSED_LIPS_BELOW = 2.5;

/**
 * Closes lips the photo shows closed (or nearly), in place: each point of the
 * upper lip's inner edge meets its partner on the lower one halfway, so the
 * mouth is shut until the face rig opens it. Returns whether it closed them.
 */
export function closeLips(points: Vec3[]): boolean {
  const faceHeight = distance(points[10]!, points[152]!);
  const lower = [...INNER_LIP_BOTTOM].reverse();
  const pairs = INNER_LIP_TOP.slice(1, -1).map((u, k) => [u, lower[k + 1]!] as const);
  const widest = Math.max(...pairs.map(([u, l]) => distance(points[u]!, points[l]!)));
  if (widest >= (CLOSED_LIPS_BELOW / 1000) * (faceHeight / 0.12)) return false;
  for (const [u, l] of pairs) {
    const middle = scale(add(points[u]!, points[l]!), 0.5);
    points[u] = middle;
    points[l] = [...middle];
  }
  return true;
}
const TEETH_COLUMNS = 14;

/** The cavity's rings run round the lips' inner edge: over the top, corner to corner, and back. */
const CAVITY_LOOP = [...INNER_LIP_TOP, ...INNER_LIP_BOTTOM.slice(1, -1)];
const UPPER_EDGE = new Set(INNER_LIP_TOP.slice(1, -1));
const LOWER_EDGE = new Set(INNER_LIP_BOTTOM.slice(1, -1));

/** How deep the MouthCavity's vertex `v` lies: 0 on the lips' edge, 1 at the back. */
export function cavityDepth(v: number): number {
  return Math.min(1, Math.floor(v / CAVITY_LOOP.length) / CAVITY_RINGS);
}

/**
 * Which lip the MouthCavity's vertex `v` hangs from: its column's point on
 * the lips' inner edge is on the upper lip, on the lower, or a corner (the
 * back's centre counts as a corner). Closed lips' edges lie on each other, so
 * where a vertex is does not tell it.
 */
export function cavityLip(v: number): 'upper' | 'lower' | 'corner' {
  if (v >= CAVITY_RINGS * CAVITY_LOOP.length) return 'corner';
  return lipOf(CAVITY_LOOP[v % CAVITY_LOOP.length]!);
}

/** Which lip a landmark of the lips' inner edge is on, or a corner. */
function lipOf(landmark: number): 'upper' | 'lower' | 'corner' {
  return UPPER_EDGE.has(landmark) ? 'upper' : LOWER_EDGE.has(landmark) ? 'lower' : 'corner';
}

/** Which way the cavity opens behind each lip: up behind the upper, down behind the lower. */
const OPENS = { upper: 1, lower: -1, corner: 0 } as const;

/**
 * Inside the mouth: a dark cavity hanging from the lips' inner edge back
 * into the head, upper and lower teeth rows behind the lips, and a tongue on
 * the cavity's floor. The face rig opens them with the jaw (jawOpen shows
 * the teeth between the lips); closed, the lips hide them.
 */
export function buildMouth(points: readonly Vec3[]): Part[] {
  const faceHeight = distance(points[10]!, points[152]!);
  const mm = (v: number) => (v / 1000) * (faceHeight / 0.12);
  const loop = CAVITY_LOOP;
  const lip = loop.map((i) => points[i]!);
  const centre = scale(
    lip.reduce<Vec3>((s, p) => [s[0] + p[0], s[1] + p[1], s[2] + p[2]], [0, 0, 0]),
    1 / lip.length,
  );
  const lineY = (points[13]![1] + points[14]![1]) / 2;
  const front = (points[13]![2] + points[14]![2]) / 2;
  const mouthWidth = distance(points[78]!, points[308]!);
  const depth = mm(38);
  const height = mm(17);

  const cavity = new MeshBuilder();
  // Ring 0 is the lips' edge itself; the rings open up and down behind it and close at the back.
  for (let r = 0; r < CAVITY_RINGS; r++) {
    const t = r / CAVITY_RINGS;
    loop.forEach((i, k) => {
      const p = lip[k]!;
      const sign = OPENS[lipOf(i)];
      cavity.vertex([
        centre[0] + (p[0] - centre[0]) * (1 - 0.5 * t * t),
        p[1] * (1 - t) + centre[1] * t + sign * height * Math.sin(Math.PI * t),
        // Towards one back wall: set back from each lip point, the corners' columns (the
        // corners lie further back) reached into the neck.
        p[2] + (front - depth - p[2]) * t,
      ]);
    });
  }
  const back = cavity.vertex([centre[0], centre[1], front - depth]);
  const n = loop.length;
  for (let r = 0; r + 1 < CAVITY_RINGS; r++) {
    for (let k = 0; k < n; k++) {
      cavity.quad(r * n + k, r * n + ((k + 1) % n), (r + 1) * n + ((k + 1) % n), (r + 1) * n + k);
    }
  }
  const last = (CAVITY_RINGS - 1) * n;
  for (let k = 0; k < n; k++) cavity.triangle(last + k, last + ((k + 1) % n), back);

  const row = (upper: boolean) => {
    const teeth = new MeshBuilder();
    for (let c = 0; c <= TEETH_COLUMNS; c++) {
      const s = (2 * c) / TEETH_COLUMNS - 1;
      const x = centre[0] + s * 0.42 * mouthWidth;
      const z = front - mm(4) - (upper ? 0 : mm(1)) - mm(13) * s * s;
      // The upper incisors reach a little below the upper lip's edge, as at rest with lips apart.
      const edge = upper ? points[13]![1] - mm(2) : points[14]![1] + mm(0.5);
      const root = upper ? lineY + mm(9) : lineY - mm(8);
      teeth.vertex([x, edge, z]);
      teeth.vertex([x, root, z - mm(1.5)]);
    }
    for (let c = 0; c < TEETH_COLUMNS; c++) {
      const a = 2 * c;
      if (upper) teeth.quad(a, a + 2, a + 3, a + 1);
      else teeth.quad(a, a + 1, a + 3, a + 2);
    }
    return teeth;
  };
  const enamel = hexMaterial('Teeth', '#ebe5d6', { roughness: 0.35, doubleSided: true });

  const tongue = new MeshBuilder();
  appendEllipsoid(
    tongue,
    [centre[0], lineY - mm(6.5), front - mm(17)],
    [0.3 * mouthWidth, mm(4.5), mm(16)],
  );

  return [
    {
      name: 'MouthCavity',
      mesh: cavity,
      material: hexMaterial('MouthCavity', '#3b1417', { roughness: 0.8, doubleSided: true }),
    },
    { name: 'TeethUpper', mesh: row(true), material: enamel },
    { name: 'TeethLower', mesh: row(false), material: enamel },
    {
      name: 'Tongue',
      mesh: tongue,
      material: hexMaterial('Tongue', '#a8535a', { roughness: 0.6 }),
    },
  ];
}

function appendEllipsoid(mesh: MeshBuilder, centre: Vec3, radii: Vec3): void {
  const rings = 8;
  const around = 14;
  const first = mesh.vertexCount;
  for (let i = 1; i < rings; i++) {
    const polar = (Math.PI * i) / rings;
    for (let j = 0; j < around; j++) {
      const a = (2 * Math.PI * j) / around;
      mesh.vertex([
        centre[0] + radii[0] * Math.sin(polar) * Math.sin(a),
        centre[1] + radii[1] * Math.cos(polar),
        centre[2] + radii[2] * Math.sin(polar) * Math.cos(a),
      ]);
    }
  }
  const topPole = mesh.vertex([centre[0], centre[1] + radii[1], centre[2]]);
  const bottomPole = mesh.vertex([centre[0], centre[1] - radii[1], centre[2]]);
  const at = (i: number, j: number) => first + (i - 1) * around + (j % around);
  for (let j = 0; j < around; j++) mesh.triangle(topPole, at(1, j), at(1, j + 1));
  for (let i = 1; i < rings - 1; i++) {
    for (let j = 0; j < around; j++)
      mesh.quad(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
  }
  for (let j = 0; j < around; j++)
    mesh.triangle(bottomPole, at(rings - 1, j + 1), at(rings - 1, j));
}
