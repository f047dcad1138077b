import type { BodyShape } from '../../../shared/api/index.js';
import type { AgeGroup } from './body-shapes.js';
import type { BodyField } from './body-field.js';
import { bodySurface, type BodyRegion } from './body-mesh.js';
import { bodyPlan, type BodyPlan } from './body-plan.js';
import { skeletonFor } from './body-skeleton.js';
import type { MeshBuilder } from './mesh-builder.js';
import { proportionsFor, type Proportions } from './proportions.js';
import type { Skeleton } from './skeleton.js';

/** Everything about a body that depends only on its shape and age: made once, shared by every build. */
export interface BodyTemplate {
  /** Identifies the shape and age, for caches of things made from the template. */
  key: string;
  proportions: Proportions;
  skeleton: Skeleton;
  plan: BodyPlan;
  /** The skinned body surface; shared, so never modified (bone scale makes a deformed copy). */
  body: MeshBuilder;
  /** Which tube of the plan each body vertex lies on, and where along it: garments are cut by these. */
  regions: BodyRegion[];
  /** The body's signed distance field (negative inside), which `body` polygonises. */
  field: BodyField;
}

const templates = new Map<string, BodyTemplate>();

export function bodyTemplate(body: BodyShape, age: AgeGroup): BodyTemplate {
  const key = `${body}|${age}`;
  const cached = templates.get(key);
  if (cached) return cached;
  const proportions = proportionsFor(body, age);
  const skeleton = skeletonFor(proportions);
  const plan = bodyPlan(proportions);
  const surface = bodySurface(plan, proportions, skeleton);
  const made = {
    key,
    proportions,
    skeleton,
    plan,
    body: surface.mesh,
    regions: surface.regions,
    field: surface.field,
  };
  templates.set(key, made);
  return made;
}
