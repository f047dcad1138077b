import { IDLE_POSE } from '../avatar-model/builder/animations/clips.js';
import { posedModel, resolvePose, type PoseSpec } from '../avatar-model/builder/animations/pose.js';
import type { AvatarModel } from '../avatar-model/model.js';
import type { BackdropName } from './backdrops.js';
import type { View } from './camera.js';
import { fullBodyViews, halfBodyViews, portraitViews, turnaroundViews } from './framing.js';
import { findLandmarks, type Landmarks } from './landmarks.js';

/** A scene as listed at GET /local/v1/scenes. */
export interface SceneInfo {
  /** The value of the API's `scene` parameter. */
  name: string;
  title: string;
  description: string;
  /** Size used when a render asks for none; 1024×1024 when absent. */
  default_size?: { width: number; height: number };
}

interface SceneDefinition {
  info: SceneInfo;
  views(landmarks: Landmarks, width: number, height: number): View[];
  /** The pose the avatar is skinned into; the bind pose (T-pose) when absent. */
  pose?: PoseSpec;
  /** What stands behind the avatar; transparent (or the request's background colour) when absent. */
  backdrop?: BackdropName;
}

/** A themed scene of the hosted API: the avatar in its idle pose. */
function hosted(
  name: string,
  title: string,
  description: string,
  views: SceneDefinition['views'],
  backdrop?: BackdropName,
): SceneDefinition {
  return {
    info: { name, title, description },
    views,
    pose: IDLE_POSE,
    ...(backdrop ? { backdrop } : {}),
  };
}

const DEFINITIONS: readonly SceneDefinition[] = [
  {
    info: {
      name: 'common/preview',
      title: 'Preview',
      description: 'Head-and-shoulders portrait from the front. The default scene.',
    },
    views: portraitViews,
  },
  {
    info: {
      name: 'common/fullbody',
      title: 'Full body',
      description: 'The whole avatar from the front, feet to head.',
    },
    views: fullBodyViews,
  },
  {
    info: {
      name: 'common/turnaround',
      title: 'Turnaround',
      description:
        'Front, side, back and other side in one image, in the idle pose: a 2×2 grid, a row or a column, whichever shows the avatar largest.',
    },
    // Arms down: in the T-pose the side views looked along an arm, and the hand hid the face.
    pose: IDLE_POSE,
    views: turnaroundViews,
  },
  hosted(
    'common/transparent_half_body',
    'Half body, transparent',
    'From the hips up in the idle pose, on a transparent background.',
    halfBodyViews,
  ),
  hosted(
    'common/transparent_full_body',
    'Full body, transparent',
    'The whole avatar in the idle pose, on a transparent background.',
    fullBodyViews,
  ),
  hosted(
    'common/forest_half_body',
    'Half body, forest',
    'From the hips up in the idle pose, before a forest of firs.',
    halfBodyViews,
    'forest',
  ),
  hosted(
    'common/forest_full_body',
    'Full body, forest',
    'The whole avatar in the idle pose, on a forest meadow.',
    fullBodyViews,
    'forest',
  ),
  hosted(
    'common/city_full_body',
    'Full body, city',
    'The whole avatar in the idle pose, on a city street at dusk.',
    fullBodyViews,
    'city',
  ),
  hosted(
    'common/futuristic_fantasy_full_body',
    'Full body, futuristic fantasy',
    'The whole avatar in the idle pose, on a glowing grid under a ringed planet.',
    fullBodyViews,
    'futuristic_fantasy',
  ),
];

export const DEFAULT_SCENE = 'common/preview';

export const SCENES: readonly SceneInfo[] = Object.freeze(
  DEFINITIONS.map((definition) => Object.freeze({ ...definition.info })),
);

export function isSceneName(name: string): boolean {
  return DEFINITIONS.some((definition) => definition.info.name === name);
}

export class UnknownSceneError extends Error {
  constructor(readonly scene: string) {
    super(`unknown scene '${scene}'; known: ${SCENES.map((s) => s.name).join(', ')}`);
    this.name = 'UnknownSceneError';
  }
}

export function sceneInfo(name: string): SceneInfo {
  const definition = DEFINITIONS.find((d) => d.info.name === name);
  if (!definition) throw new UnknownSceneError(name);
  return definition.info;
}

/** What a scene draws: the avatar as posed for it, the cameras, and what stands behind. */
export interface SceneSetup {
  model: AvatarModel;
  views: View[];
  backdrop?: BackdropName;
}

export function sceneSetup(
  model: AvatarModel,
  scene: string,
  width: number,
  height: number,
): SceneSetup {
  const definition = DEFINITIONS.find((d) => d.info.name === scene);
  if (!definition) throw new UnknownSceneError(scene);
  const posed = definition.pose
    ? posedModel(model, resolvePose(model.joints, definition.pose))
    : model;
  return {
    model: posed,
    views: definition.views(findLandmarks(posed), width, height),
    ...(definition.backdrop ? { backdrop: definition.backdrop } : {}),
  };
}

/** The cameras and viewports that make up a scene for this avatar at this image size. */
export function sceneViews(
  model: AvatarModel,
  scene: string,
  width: number,
  height: number,
): View[] {
  return sceneSetup(model, scene, width, height).views;
}
