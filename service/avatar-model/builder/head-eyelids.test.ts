import { describe, expect, it } from 'vitest';
import { LEFT_LIDS } from './face-rig/landmark-groups.js';
import { closedEyes, openEyes } from './head-eyelids.js';
import { analysisOf, build, mesh, PEOPLE } from './test-support.js';
import type { Vec3 } from './vec3.js';

/** A photo's landmarks are in pixels, y down; the lids are read y up. */
const photoLandmarks = (person: (typeof PEOPLE)[number]): Vec3[] =>
  analysisOf(person).photos['image-frontal'].faces[0]!.mesh.map((p): Vec3 => [p[0]!, -p[1]!, 0]);

describe('eyes photographed closed', () => {
  it.each(PEOPLE)('%s: are told closed in the photo, and open on the avatar', async (person) => {
    expect(closedEyes(photoLandmarks(person))).toEqual([true, true]);
    const head = mesh(await build(person), 'Head');
    const avatar = Array.from({ length: 468 }, (_, i): Vec3 => [
      head.positions[3 * i]!,
      head.positions[3 * i + 1]!,
      head.positions[3 * i + 2]!,
    ]);
    expect(closedEyes(avatar)).toEqual([false, false]);
  });

  it('are told apart eye by eye, the right first', () => {
    const photo = photoLandmarks('person-a');
    const opened = photo.map((p): Vec3 => [...p]);
    expect(openEyes(opened)).toEqual([true, true]);
    // The left eye's lids as photographed again: closed.
    for (const i of [...LEFT_LIDS.upper, ...LEFT_LIDS.lower, ...LEFT_LIDS.crease])
      opened[i] = photo[i]!;
    expect(closedEyes(opened)).toEqual([false, true]);
  });
});
