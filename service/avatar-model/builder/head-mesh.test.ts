import { describe, expect, it } from 'vitest';
import { canonicalFace, faceSurface } from './face-landmarks.js';
import { buildHeadMesh, SkullWalk } from './head-mesh.js';
import { fitHead, skullRadius, type HeadShape } from './head-shape.js';
import { analysisOf, SUBJECTS, topology } from './test-support.js';
import { distance, sub, type Vec3 } from './vec3.js';

describe('the skull walk', () => {
  const face = analysisOf('person-a').photos['image-frontal'].faces[0]!;
  const points = canonicalFace(face.mesh, 0.19).points;
  const { rim } = faceSurface(topology);
  const rule = fitHead(points);
  // A shape as the fit tries them: every radius and the profile moved, the centre kept.
  const tried: HeadShape = {
    ...rule,
    side: rule.side * 1.1,
    up: rule.up * 0.93,
    back: rule.back * 1.2,
    profile: rule.profile.map((_, k) => 0.02 * (k - 3)),
    jaw: 0.3,
  };

  it('walked once, gives every shape the rings a walk of its own would', () => {
    const walk = new SkullWalk(points, rim, rule.centre);
    const own = new SkullWalk(points, rim, tried.centre).rings(tried);
    const reused = walk.rings(tried);
    expect(reused.flat().length).toBe(own.flat().length);
    reused.flat().forEach((p, i) => expect(p).toEqual(own.flat()[i]));
    // And the shape matters: the rule's own skull is elsewhere.
    const ruleRings = walk.rings(rule).flat();
    expect(Math.max(...reused.flat().map((p, i) => distance(p, ruleRings[i]!)))).toBeGreaterThan(
      0.005,
    );
  });

  it('eases from the rim into the skull: the last ring lies on the shape’s own surface', () => {
    const walk = new SkullWalk(points, rim, tried.centre);
    const last = walk.rings(tried).at(-1)!;
    for (const p of last) {
      const offset: Vec3 = sub(p, tried.centre);
      const r = Math.hypot(...offset);
      const onSkull = skullRadius(tried, [offset[0] / r, offset[1] / r, offset[2] / r]);
      expect(r).toBeCloseTo(onSkull, 6);
    }
  });

  it('serves only shapes about its own centre', () => {
    const walk = new SkullWalk(points, rim, rule.centre);
    const moved = { ...tried, centre: [0, rule.centre[1] + 0.01, rule.centre[2]] as Vec3 };
    expect(() => walk.radii(moved)).toThrow(/own centre/);
  });
});

describe('the face chart', () => {
  it.each(SUBJECTS)(
    '%s: gives the sides of the face as many texels across as the middle gets',
    (subject) => {
      const face = analysisOf(subject).photos['image-frontal'].faces[0]!;
      const points = canonicalFace(face.mesh, 0.19).points;
      const mesh = buildHeadMesh(points, faceSurface(topology), fitHead(points));
      const reach = Math.max(...points.map((p) => Math.abs(p[0])));
      // Texels (of a 1024² atlas) per millimetre along the face's level edges, in its middle
      // half and in its outer quarters, in front of the ears.
      const middle: number[] = [];
      const sides: number[] = [];
      for (let t = 0; t < mesh.indices.length; t += 3) {
        for (let k = 0; k < 3; k++) {
          const a = mesh.indices[t + k]!;
          const b = mesh.indices[t + ((k + 1) % 3)]!;
          if (a >= points.length || b >= points.length) continue;
          const edge = sub(mesh.position(b), mesh.position(a));
          const length = Math.hypot(...edge);
          if (Math.abs(edge[1]) > 0.3 * length) continue;
          const across = Math.hypot(
            mesh.uvs[2 * b]! - mesh.uvs[2 * a]!,
            mesh.uvs[2 * b + 1]! - mesh.uvs[2 * a + 1]!,
          );
          const x = Math.abs(mesh.position(a)[0] + mesh.position(b)[0]) / 2;
          const density = (1024 * across) / (1000 * length);
          if (x > 0.75 * reach) sides.push(density);
          else if (x < 0.5 * reach) middle.push(density);
        }
      }
      middle.sort((p, q) => p - q);
      const typical = middle[Math.floor(middle.length / 2)]!;
      // The frontal photo's pixels as the chart gave the sides as little as 0.1 texel/mm, a
      // twentieth of the middle's: the side photos' colours were smeared there into streaks.
      expect(Math.min(...sides)).toBeGreaterThan(0.5 * typical);
    },
  );
});
