import { beforeAll, describe, expect, it } from 'vitest';
import type { AvatarModel } from '../../model.js';
import { build, readGlb, writeModel } from '../test-support.js';
import { IDLE_POSE } from './clips.js';
import { jointMotions, posedModel, resolvePose, Y } from './pose.js';

let model: AvatarModel;
beforeAll(async () => {
  model = await build('person-a');
});

const at = (m: AvatarModel, name: string) => m.joints.find((j) => j.name === name)!.position;
const direction = (m: AvatarModel, from: string, to: string) => {
  const a = at(m, from);
  const b = at(m, to);
  const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const l = Math.hypot(d[0]!, d[1]!, d[2]!);
  return d.map((v) => v / l);
};
const degreesBetween = (a: number[], b: number[]) =>
  (Math.acos(Math.min(1, a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!)) * 180) / Math.PI;

describe('posing and skinning', () => {
  it('leaves the bind pose where it is', () => {
    const posed = posedModel(model, resolvePose(model.joints, { turns: [] }));
    for (const [i, mesh] of model.meshes.entries()) {
      const moved = posed.meshes[i]!.positions;
      for (let k = 0; k < mesh.positions.length; k++) {
        expect(Math.abs(moved[k]! - mesh.positions[k]!)).toBeLessThan(1e-5);
      }
    }
  });

  it('lowers the upper arms 60° and bends the forearms 20° in the idle pose', () => {
    const idle = posedModel(model, resolvePose(model.joints, IDLE_POSE));
    for (const side of ['Left', 'Right']) {
      const upper = direction(idle, `${side}Arm`, `${side}ForeArm`);
      const fore = direction(idle, `${side}ForeArm`, `${side}Hand`);
      // Upper arm below the horizontal by 60°, still in the body's plane.
      expect((Math.asin(-upper[1]!) * 180) / Math.PI).toBeCloseTo(60, 0);
      expect(Math.abs(upper[2]!)).toBeLessThan(0.02);
      // The elbow bends 20°, the hand coming forward.
      expect(degreesBetween(upper, fore)).toBeCloseTo(20, 0);
      expect(fore[2]!).toBeGreaterThan(0.2);
      // Bones keep their length.
      const bind = Math.hypot(
        ...[0, 1, 2].map((k) => at(model, `${side}Hand`)[k]! - at(model, `${side}ForeArm`)[k]!),
      );
      const posed = Math.hypot(
        ...[0, 1, 2].map((k) => at(idle, `${side}Hand`)[k]! - at(idle, `${side}ForeArm`)[k]!),
      );
      expect(posed).toBeCloseTo(bind, 6);
    }
    // The hand's skin moved with it: its vertices now hang below the shoulders.
    const body = idle.meshes.find((m) => m.name === 'Body')!;
    let lowest = Infinity;
    const shoulderY = at(idle, 'LeftArm')[1];
    for (let v = 0; v < body.positions.length; v += 3) {
      if (body.positions[v]! > at(idle, 'LeftForeArm')[0]) {
        lowest = Math.min(lowest, body.positions[v + 1]!);
      }
    }
    expect(lowest).toBeLessThan(shoulderY - 0.3);
  });

  // The T-pose points the thumb forward, and lowering the arms kept it so: in the idle renders
  // it stood off the hand like a peg, 46° from the index finger.
  it('relaxes the hands in the idle pose: the thumb along the index, the fingers curled', () => {
    const idle = posedModel(model, resolvePose(model.joints, IDLE_POSE));
    for (const side of ['Left', 'Right']) {
      const bone = (name: string, from: number, to: number) =>
        direction(idle, `${side}Hand${name}${from}`, `${side}Hand${name}${to}`);
      expect(degreesBetween(bone('Thumb', 1, 4), bone('Index', 1, 4)), side).toBeLessThan(20);
      const curl = (finger: string) => degreesBetween(bone(finger, 1, 2), bone(finger, 3, 4));
      expect(curl('Index'), side).toBeGreaterThan(15);
      // Each finger a little more than the one before it, towards the little finger.
      expect(curl('Middle')).toBeGreaterThan(curl('Index'));
      expect(curl('Ring')).toBeGreaterThan(curl('Middle'));
      expect(curl('Pinky')).toBeGreaterThan(curl('Ring'));
    }
  });

  it('turns the head about the vertical without moving the neck joint', () => {
    const pose = resolvePose(model.joints, { turns: [['Head', Y, 30]] });
    const motions = jointMotions(model.joints, pose);
    const head = model.joints.findIndex((j) => j.name === 'Head');
    const neck = model.joints.findIndex((j) => j.name === 'Neck');
    const q = motions[head]!.rotation;
    expect((2 * Math.acos(Math.abs(q[3])) * 180) / Math.PI).toBeCloseTo(30, 3);
    expect(Math.abs(q[1])).toBeCloseTo(Math.sin(Math.PI / 12), 5);
    expect(motions[neck]!.rotation[3]).toBeCloseTo(1, 9);
  });

  it('exports idle, wave and walk as glTF clips that move the skeleton', async () => {
    const doc = await readGlb(await writeModel(model));
    const clips = doc.getRoot().listAnimations();
    expect(clips.map((a) => a.getName())).toEqual(['idle', 'wave', 'walk']);
    for (const clip of clips) {
      const targets = new Set(clip.listChannels().map((c) => c.getTargetNode()?.getName()));
      expect(targets.size).toBeGreaterThan(4);
      for (const sampler of clip.listSamplers()) {
        const times = Array.from(sampler.getInput()!.getArray() as Float32Array);
        expect(times[0]).toBe(0);
        for (let k = 1; k < times.length; k++) expect(times[k]).toBeGreaterThan(times[k - 1]!);
      }
    }
    const walk = clips.find((a) => a.getName() === 'walk')!;
    const walked = new Set(walk.listChannels().map((c) => c.getTargetNode()?.getName()));
    for (const bone of ['LeftUpLeg', 'RightUpLeg', 'LeftLeg', 'LeftArm', 'Hips']) {
      expect(walked).toContain(bone);
    }
    const wave = clips.find((a) => a.getName() === 'wave')!;
    const waved = new Set(wave.listChannels().map((c) => c.getTargetNode()?.getName()));
    expect(waved).toContain('RightForeArm');
  });
});
