import { describe, expect, it } from 'vitest';
import type { AvatarMesh } from '../model.js';
import { boundaryLoops } from './body-stitch.js';
import { PEOPLE, build, joint, mesh, styleId } from './test-support.js';

/** Mixamo's hierarchy, written out here independently of the builder's table. */
const MIXAMO_PARENTS: Record<string, string | null> = {
  Hips: null,
  Spine: 'Hips',
  Spine1: 'Spine',
  Spine2: 'Spine1',
  Neck: 'Spine2',
  Head: 'Neck',
  HeadTop_End: 'Head',
  LeftEye: 'Head',
  RightEye: 'Head',
};
for (const side of ['Left', 'Right']) {
  Object.assign(MIXAMO_PARENTS, {
    [`${side}Shoulder`]: 'Spine2',
    [`${side}Arm`]: `${side}Shoulder`,
    [`${side}ForeArm`]: `${side}Arm`,
    [`${side}Hand`]: `${side}ForeArm`,
    [`${side}UpLeg`]: 'Hips',
    [`${side}Leg`]: `${side}UpLeg`,
    [`${side}Foot`]: `${side}Leg`,
    [`${side}ToeBase`]: `${side}Foot`,
    [`${side}Toe_End`]: `${side}ToeBase`,
  });
  for (const finger of ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky']) {
    MIXAMO_PARENTS[`${side}Hand${finger}1`] = `${side}Hand`;
    for (const k of [2, 3, 4])
      MIXAMO_PARENTS[`${side}Hand${finger}${k}`] = `${side}Hand${finger}${k - 1}`;
  }
}

const DRESSED = {
  assets: {
    clothing: { id: styleId('hoodie') },
    hair_and_headwear: { id: styleId('long'), color: null },
    eyewear: { id: styleId('round'), color: null },
    footwear: { id: styleId('boots') },
  },
};

/** Per vertex: its non-zero influences. */
function influences(m: AvatarMesh): { joint: number; weight: number }[][] {
  const out: { joint: number; weight: number }[][] = [];
  for (let v = 0; v < m.weights.length; v += 4) {
    const list = [];
    for (let k = 0; k < 4; k++)
      if (m.weights[v + k]! > 0) list.push({ joint: m.joints[v + k]!, weight: m.weights[v + k]! });
    out.push(list);
  }
  return out;
}

describe.each(PEOPLE)('the skeleton and skin of %s', (person) => {
  it('has exactly the Mixamo bones, fingers and end bones included, rooted at Hips', async () => {
    const model = await build(person);
    const names = model.joints.map((j) => j.name);
    expect(new Set(names)).toEqual(new Set(Object.keys(MIXAMO_PARENTS)));
    expect(names).toHaveLength(67);
    for (const j of model.joints) {
      expect(j.parent === -1 ? null : model.joints[j.parent]!.name).toBe(MIXAMO_PARENTS[j.name]);
    }
    expect(model.joints.filter((j) => j.parent === -1).map((j) => j.name)).toEqual(['Hips']);
  });

  it('stands in a T-pose facing +z with the feet on the ground', async () => {
    const model = await build(person, DRESSED);
    for (const side of ['Left', 'Right']) {
      const sign = side === 'Left' ? 1 : -1;
      const arm = joint(model, `${side}Arm`);
      const hand = joint(model, `${side}Hand`);
      expect(Math.abs(hand[1] - arm[1])).toBeLessThan(0.01);
      expect(sign * (hand[0] - arm[0])).toBeGreaterThan(0.4);
      const toe = joint(model, `${side}ToeBase`);
      expect(toe[2]).toBeGreaterThan(joint(model, `${side}Foot`)[2]);
    }
    expect(joint(model, 'Head')[1]).toBeGreaterThan(joint(model, 'Neck')[1]);
    expect(joint(model, 'Neck')[1]).toBeGreaterThan(joint(model, 'Hips')[1]);
    let lowest = Infinity;
    for (const m of model.meshes)
      for (let i = 1; i < m.positions.length; i += 3) lowest = Math.min(lowest, m.positions[i]!);
    expect(Math.abs(lowest)).toBeLessThan(0.003);
    // The nose is in front of the head joint.
    const head = mesh(model, 'Head');
    let front = -Infinity;
    for (let i = 2; i < head.positions.length; i += 3) front = Math.max(front, head.positions[i]!);
    expect(front).toBeGreaterThan(joint(model, 'Head')[2] + 0.05);
  });

  it('weights every vertex of every mesh with 1 to 4 influences summing to 1', async () => {
    const model = await build(person, DRESSED);
    for (const m of model.meshes) {
      expect(m.weights.length).toBe((m.positions.length / 3) * 4);
      for (const list of influences(m)) {
        expect(list.length).toBeGreaterThanOrEqual(1);
        expect(list.length).toBeLessThanOrEqual(4);
        const sum = list.reduce((s, i) => s + i.weight, 0);
        expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
        for (const i of list) expect(i.joint).toBeLessThan(model.joints.length);
        expect(new Set(list.map((i) => i.joint)).size).toBe(list.length);
      }
    }
  });

  it('blends neighbouring bones smoothly along the limbs and spine', async () => {
    const model = await build(person);
    const body = mesh(model, 'Body');
    const index = (name: string) => model.joints.findIndex((j) => j.name === name);
    const share = (list: { joint: number; weight: number }[], name: string) =>
      list.find((i) => i.joint === index(name))?.weight ?? 0;
    const all = influences(body);
    for (const [a, b] of [
      ['LeftArm', 'LeftForeArm'],
      ['RightLeg', 'RightFoot'],
      ['LeftUpLeg', 'LeftLeg'],
      ['Spine1', 'Spine2'],
    ] as const) {
      // Around the joint some vertices follow both bones substantially…
      const mixed = all.filter((l) => share(l, a) > 0.25 && share(l, b) > 0.25);
      expect(mixed.length, `${a}/${b}`).toBeGreaterThan(5);
    }
    // …while the middle of a long bone follows it alone.
    const elbow = joint(model, 'LeftForeArm');
    const wrist = joint(model, 'LeftHand');
    const mid = (elbow[0] + wrist[0]) / 2;
    const middle = all.filter((_, v) => {
      const x = body.positions[3 * v]!;
      const y = body.positions[3 * v + 1]!;
      return Math.abs(x - mid) < 0.02 && Math.abs(y - wrist[1]) < 0.1;
    });
    // A forearm ring or two: enough vertices that the check means something.
    expect(middle.length).toBeGreaterThanOrEqual(16);
    for (const list of middle) expect(share(list, 'LeftForeArm')).toBeGreaterThan(0.95);
  });

  it('skins the head and what it carries to the head, and shoes to the feet', async () => {
    const model = await build(person, DRESSED);
    const headIndex = model.joints.findIndex((j) => j.name === 'Head');
    // The head's open edge on the neck is skinned as the body under it, and the head within
    // 3 cm of that edge blends into the Head bone (neck-join.test.ts).
    const head = mesh(model, 'Head');
    const rigid = (m: AvatarMesh, v: number) =>
      m.joints[4 * v] === headIndex && m.weights[4 * v] === 1;
    const point = (v: number) => [0, 1, 2].map((i) => head.positions[3 * v + i]!);
    const seam = [...new Set(boundaryLoops(head.indices).flat())]
      .filter((v) => !rigid(head, v))
      .map(point);
    expect(seam.length).toBeGreaterThan(12);
    for (const name of ['Head', 'GlassesFrame', 'GlassesLenses']) {
      const m = mesh(model, name);
      for (let v = 0; v < m.weights.length / 4; v++) {
        if (m === head && !rigid(m, v)) {
          const p = point(v);
          const gap = Math.min(...seam.map((q) => Math.hypot(...q.map((x, i) => x - p[i]!))));
          expect(gap).toBeLessThan(0.03);
          continue;
        }
        expect(m.joints[4 * v]).toBe(headIndex);
        expect(m.weights[4 * v]).toBe(1);
      }
    }
    // The eyeballs turn on their own bones, as Ready Player Me's do.
    const eyes = new Set(
      ['LeftEye', 'RightEye'].map((n) => model.joints.findIndex((j) => j.name === n)),
    );
    const irises = mesh(model, 'EyeIrises');
    for (let v = 0; v < irises.weights.length; v += 4) {
      expect(eyes.has(irises.joints[v]!)).toBe(true);
      expect(irises.weights[v]).toBe(1);
    }
    const feet = new Set(
      ['LeftLeg', 'LeftFoot', 'LeftToeBase', 'RightLeg', 'RightFoot', 'RightToeBase'].map((n) =>
        model.joints.findIndex((j) => j.name === n),
      ),
    );
    const shoes = mesh(model, 'Shoes');
    for (let v = 0; v < shoes.weights.length; v++)
      if (shoes.weights[v]! > 0) expect(feet.has(shoes.joints[v]!)).toBe(true);
  });
});
