import { describe, expect, it } from 'vitest';
import type { AvatarMesh, AvatarModel } from '../../model.js';
import { buildAvatar } from '../build-avatar.js';
import {
  build,
  customize,
  SUBJECTS,
  glbJson,
  joint,
  mesh,
  validate,
  wideEyedInput,
  writeModel,
} from '../test-support.js';
import { ARKIT_BLENDSHAPES } from '../../../../shared/appearance/arkit-blendshapes.js';
import { INNER_LIP_BOTTOM, LEFT_LIDS, RIGHT_LIDS } from './landmark-groups.js';
import { firstHit } from '../outfits/skin-pokes.js';

/** Every triangle of a mesh, for firstHit. */
const FACES = (m: AvatarMesh) => Array.from({ length: m.indices.length / 3 }, (_, t) => t);

const at = (m: AvatarMesh, v: number, target?: string): [number, number, number] => {
  const p = m.positions;
  const d = target ? m.morphTargets!.find((t) => t.name === target)!.positions : null;
  return [0, 1, 2].map((k) => p[3 * v + k]! + (d ? d[3 * v + k]! : 0)) as [number, number, number];
};
const gap = (m: AvatarMesh, upper: number, lower: number, target?: string) =>
  at(m, upper, target)[1] - at(m, lower, target)[1];

describe('ARKit blend shapes on the face', () => {
  it('gives the head all 52, named exactly as ARKit, in the GLB too', async () => {
    const model = await build('person-a');
    const head = mesh(model, 'Head');
    expect(head.morphTargets!.map((t) => t.name)).toEqual([...ARKIT_BLENDSHAPES]);
    expect(new Set(ARKIT_BLENDSHAPES).size).toBe(52);
    for (const t of head.morphTargets!) {
      expect(t.positions.length, t.name).toBe(head.positions.length);
      expect(Math.max(...t.positions.map(Math.abs)), `${t.name} moves`).toBeGreaterThan(5e-4);
    }
    const glb = await writeModel(model);
    const json = glbJson(glb) as unknown as {
      meshes: {
        name: string;
        extras?: { targetNames?: string[] };
        primitives: { targets?: unknown[] }[];
      }[];
    };
    const gltfHead = json.meshes.find((m) => m.name === 'HeadMesh' || m.name === 'Head')!;
    expect(gltfHead.extras?.targetNames).toEqual([...ARKIT_BLENDSHAPES]);
    expect(gltfHead.primitives[0]!.targets).toHaveLength(52);
    const report = await validate(glb);
    expect(report.issues.numErrors).toBe(0);
    expect(report.issues.numWarnings).toBe(0);
  });

  it.each(SUBJECTS)(
    '%s: jawOpen drops the chin at least 1.5 cm and parts the lips over the teeth',
    async (person) => {
      const model = await build(person);
      const head = mesh(model, 'Head');
      const drop = at(head, 152)[1] - at(head, 152, 'jawOpen')[1];
      expect(drop).toBeGreaterThanOrEqual(0.015);
      // The lips' inner edges (13 upper, 14 lower) part by more than a centimetre.
      expect(gap(head, 13, 14, 'jawOpen')).toBeGreaterThan(0.01);
      // The upper teeth stay under the upper lip, the lower teeth go down with the jaw.
      const upper = mesh(model, 'TeethUpper');
      const lower = mesh(model, 'TeethLower');
      expect(upper.morphTargets).toBeUndefined();
      const count = lower.positions.length / 3;
      const tops = Array.from({ length: count }, (_, v) => at(lower, v, 'jawOpen')[1]);
      const rest = Array.from({ length: count }, (_, v) => at(lower, v)[1]);
      expect(Math.min(...rest.map((y, v) => y - tops[v]!))).toBeGreaterThan(0.008);
      const lowerTeethTop = Math.max(...tops);
      const upperTeethBottom = Math.min(
        ...Array.from({ length: upper.positions.length / 3 }, (_, v) => at(upper, v)[1]),
      );
      // Between the parted lips one sees teeth: the upper row's edge is below the open upper lip.
      expect(upperTeethBottom).toBeLessThan(at(head, 13, 'jawOpen')[1]);
      expect(lowerTeethTop).toBeGreaterThan(at(head, 14, 'jawOpen')[1] - 0.004);
    },
  );

  it.each(['person-a', 'person-b@narrow', 'person-c@long'] as const)(
    '%s: jawOpen opens an oval, its corners staying, and mouthClose shuts it again',
    async (subject) => {
      const head = mesh(await build(subject), 'Head');
      const drop = (i: number, ...shapes: string[]) =>
        at(head, i)[1] -
        shapes.reduce((y, s) => y + at(head, i, s)[1] - at(head, i)[1], at(head, i)[1]);
      // The lower lip's inner edge from the right corner to the middle: dropping more and more.
      const half = [...INNER_LIP_BOTTOM].reverse().slice(0, 6);
      const drops = half.map((i) => drop(i, 'jawOpen'));
      expect(drops[0]).toBeLessThan(0.001);
      for (let k = 1; k < drops.length; k++) expect(drops[k]).toBeGreaterThan(drops[k - 1]!);
      // Beside the corner it drops under 70 % of the middle's (dropped whole: a box of a mouth).
      expect(drops[1]! / drops[5]!).toBeLessThan(0.7);
      // With mouthClose the lips meet again, the lower edge back where it was (the corners are
      // the upper lip's).
      for (const i of INNER_LIP_BOTTOM.slice(1, -1))
        expect(Math.abs(drop(i, 'jawOpen', 'mouthClose'))).toBeLessThan(0.001);
    },
  );

  it.each([
    ['person-a', {}],
    ['person-b@narrow', {}],
    ['person-c@long', {}],
    ['person-a', { body: 'body_2', age: '3-6' }],
  ] as const)(
    '%s %j: jawOpen shows the teeth and the tongue in a dark mouth, and no skin behind them',
    async (subject, change) => {
      const model = await build(subject, change);
      const opened = (m: AvatarMesh) => {
        const jaw = m.morphTargets?.find((t) => t.name === 'jawOpen');
        return jaw ? m.positions.map((p, i) => p + jaw.positions[i]!) : m.positions;
      };
      const head = mesh(model, 'Head');
      const corner = (i: number) => at(head, i, 'jawOpen');
      const [top, bottom] = [corner(13), corner(14)];
      const halfWidth = (corner(308)[0] - corner(78)[0]) / 2;
      const front = top[2] + 0.05;
      // Only triangles round the mouth can be met: the rest of the body need not be tried.
      const near = (m: AvatarMesh) =>
        FACES(m).filter((t) => {
          const v = m.indices[3 * t]!;
          return (
            Math.abs(m.positions[3 * v]! - top[0]) < 0.1 &&
            Math.abs(m.positions[3 * v + 1]! - top[1]) < 0.12
          );
        });
      const meshes = model.meshes.map((m) => ({ m, positions: opened(m), faces: near(m) }));
      // What a ray straight in through the open mouth meets first, on a grid over the opening.
      const seen: Record<string, number> = {};
      for (let fx = -0.8; fx <= 0.81; fx += 0.2) {
        for (let fy = 0.025; fy < 1; fy += 0.05) {
          const from: [number, number, number] = [
            top[0] + fx * halfWidth,
            top[1] + (bottom[1] - top[1]) * fy,
            front,
          ];
          let first = '';
          let nearest = Infinity;
          for (const { m, positions, faces } of meshes) {
            const hit = firstHit(...from, [0, 0, -1], positions, m.indices, faces, 0.2);
            if (hit && hit.distance < nearest) [first, nearest] = [m.name, hit.distance];
          }
          seen[first] = (seen[first] ?? 0) + 1;
        }
      }
      // The neck's skin inside the head showed at the back of the mouth, and before that a
      // curtain of the cavity hid the teeth.
      const saw = JSON.stringify(seen);
      expect(seen.Body ?? 0, saw).toBe(0);
      expect(seen.TeethUpper ?? 0, saw).toBeGreaterThanOrEqual(6);
      expect(seen.TeethLower ?? 0, saw).toBeGreaterThanOrEqual(3);
      expect(seen.Tongue ?? 0, saw).toBeGreaterThanOrEqual(3);
      expect(seen.MouthCavity ?? 0, saw).toBeGreaterThan(80);
    },
  );

  /**
   * Each eye's opening at its middle, lid to lid, at rest (and as a share of
   * the eye's width) and under its blink, and the other eye's under that blink.
   */
  const openings = (head: AvatarMesh) =>
    (
      [
        [LEFT_LIDS, RIGHT_LIDS, 'eyeBlinkLeft'],
        [RIGHT_LIDS, LEFT_LIDS, 'eyeBlinkRight'],
      ] as const
    ).map(([lids, other, blink]) => {
      const width = Math.hypot(
        ...[0, 1, 2].map((k) => at(head, lids.corners[0])[k]! - at(head, lids.corners[1])[k]!),
      );
      const open = gap(head, lids.upper[3]!, lids.lower[3]!);
      return {
        open,
        share: open / width,
        blinked: gap(head, lids.upper[3]!, lids.lower[3]!, blink),
        other: gap(head, other.upper[3]!, other.lower[3]!),
        otherBlinked: gap(head, other.upper[3]!, other.lower[3]!, blink),
      };
    });

  it.each(SUBJECTS)(
    '%s: opens the eyes the photos show closed, and the blinks close them again',
    async (person) => {
      for (const eye of openings(mesh(await build(person), 'Head'))) {
        expect(eye.share, 'open at rest').toBeGreaterThan(0.25);
        expect(eye.blinked, 'closed by the blink').toBeLessThan(0.15 * eye.open);
        expect(eye.otherBlinked).toBeCloseTo(eye.other, 5);
      }
    },
  );

  it('keeps eyes photographed wide open as they are, and the blinks close them too', async () => {
    // The fixtures' eyes are photographed closed: every other avatar has the builder's opening.
    const head = mesh(await buildAvatar(await wideEyedInput(customize())), 'Head');
    for (const eye of openings(head)) {
      // Wider than the builder's own relaxed opening (0.32 of the width); 0.36–0.39.
      expect(eye.share, 'open as photographed').toBeGreaterThan(0.35);
      expect(eye.blinked, 'closed by the blink').toBeLessThan(0.15 * eye.open);
    }
  });

  it('opens them to a relaxed gaze: the upper lid over the iris, not above it, and clear of the pupil', async () => {
    for (const person of [
      'person-a',
      'person-b',
      'person-a@crop-900',
      'person-b@crop-900',
    ] as const) {
      const model = await build(person);
      const head = mesh(model, 'Head');
      /** The highest and lowest point of a mesh's vertices between the eye's corners. */
      const span = (name: string, lids: typeof LEFT_LIDS) => {
        const m = mesh(model, name);
        const xs = lids.corners.map((c) => at(head, c)[0]);
        const ys: number[] = [];
        for (let v = 0; v < m.positions.length / 3; v++) {
          const x = m.positions[3 * v]!;
          if (x > Math.min(...xs) && x < Math.max(...xs)) ys.push(m.positions[3 * v + 1]!);
        }
        return { top: Math.max(...ys), bottom: Math.min(...ys) };
      };
      for (const lids of [LEFT_LIDS, RIGHT_LIDS]) {
        const iris = span('EyeIrises', lids);
        const pupil = span('EyePupils', lids);
        const upper = at(head, lids.upper[3]!)[1];
        const lower = at(head, lids.lower[3]!)[1];
        // A lid above the iris's top edge shows white over it: a startled stare.
        expect(upper, `${person} upper lid`).toBeLessThan(iris.top - 0.0005);
        expect(upper, `${person} upper lid`).toBeGreaterThan(pupil.top + 0.001);
        expect(lower, `${person} lower lid`).toBeLessThan(pupil.bottom - 0.001);
        expect(lower, `${person} lower lid`).toBeGreaterThan(iris.bottom - 0.001);
      }
    }
  });

  it('turns the irises with eyeLook, about the LeftEye and RightEye bones', async () => {
    const model: AvatarModel = await build('person-a');
    const irises = mesh(model, 'EyeIrises');
    const names = irises.morphTargets!.map((t) => t.name);
    expect(names.filter((n) => n.startsWith('eyeLook'))).toHaveLength(8);
    const centre = (side: 1 | -1, target?: string) => {
      let sum = [0, 0, 0];
      let n = 0;
      for (let v = 0; v < irises.positions.length / 3; v++) {
        const p = at(irises, v, target);
        if (Math.sign(irises.positions[3 * v]!) !== side) continue;
        sum = sum.map((s, k) => s + p[k]!);
        n++;
      }
      return sum.map((s) => s / n);
    };
    const left = joint(model, 'LeftEye');
    expect(left[0]).toBeGreaterThan(0);
    // Looking out turns the left iris towards +x, looking in towards the nose (−x); up raises it.
    expect(centre(1, 'eyeLookOutLeft')[0]! - centre(1)[0]!).toBeGreaterThan(0.003);
    expect(centre(1, 'eyeLookInLeft')[0]! - centre(1)[0]!).toBeLessThan(-0.003);
    expect(centre(1, 'eyeLookUpLeft')[1]! - centre(1)[1]!).toBeGreaterThan(0.002);
    expect(centre(-1, 'eyeLookUpLeft')).toEqual(centre(-1));
    // The iris keeps its distance from the eye's centre: it turns, it does not slide.
    const before = Math.hypot(...centre(1).map((c, k) => c - left[k]!));
    const after = Math.hypot(...centre(1, 'eyeLookDownLeft').map((c, k) => c - left[k]!));
    expect(after).toBeCloseTo(before, 4);
    const skinned = irises.joints[0]!;
    expect(model.joints[skinned]!.name).toMatch(/^(Left|Right)Eye$/);
  });

  it.each(SUBJECTS)('%s: eyeBlink takes the lashes down with the lid', async (person) => {
    const model = await build(person);
    const head = mesh(model, 'Head');
    const lashes = mesh(model, 'Lashes');
    const count = lashes.positions.length / 3;
    for (const [shape, lids, side] of [
      ['eyeBlinkLeft', LEFT_LIDS, 1],
      ['eyeBlinkRight', RIGHT_LIDS, -1],
    ] as const) {
      const edge = [lids.corners[0], ...lids.upper, lids.corners[1]];
      /** How far the side's farthest lash point lies from the upper lid's edge. */
      const reach = (target?: string) => {
        const lid = edge.map((v) => at(head, v, target));
        let farthest = 0;
        for (let v = 0; v < count; v++) {
          const p = at(lashes, v, target);
          if (Math.sign(p[0]) !== side) continue;
          const nearest = Math.min(...lid.map((q) => Math.hypot(...q.map((c, k) => c - p[k]!))));
          farthest = Math.max(farthest, nearest);
        }
        return farthest;
      };
      // Closed as open, the lashes stand on the lid's edge. Carried by the nearest landmarks,
      // their tips stayed up with the fold above the lid: closed, a flap of the lashes' colour.
      expect(reach(shape)).toBeLessThan(1.2 * reach());
    }
  });

  it('has eyelids, brows, lashes, teeth and a tongue that tongueOut pushes out', async () => {
    const model = await build('person-a');
    for (const name of ['Brows', 'Lashes', 'TeethUpper', 'TeethLower', 'Tongue', 'MouthCavity']) {
      expect(mesh(model, name).indices.length, name).toBeGreaterThan(0);
    }
    const tongue = mesh(model, 'Tongue');
    const out = tongue.morphTargets!.find((t) => t.name === 'tongueOut')!.positions;
    const front = Math.max(
      ...Array.from(
        { length: tongue.positions.length / 3 },
        (_, v) => at(tongue, v, 'tongueOut')[2],
      ),
    );
    expect(front).toBeGreaterThan(at(mesh(model, 'Head'), 13)[2]);
    expect(out.length).toBe(tongue.positions.length);
  });
});
