import type { AvatarModel } from '../avatar-model/model.js';
import type { View } from './camera.js';
import { fullBodyViews, portraitViews, turnaroundViews } from './framing.js';
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
        'Front, side, back and other side in one image: a 2×2 grid, or a row or column for strip-shaped sizes.',
    },
    views: turnaroundViews,
  },
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

/** The cameras and viewports that make up a scene for this avatar at this image size. */
export function sceneViews(
  model: AvatarModel,
  scene: string,
  width: number,
  height: number,
): View[] {
  const definition = DEFINITIONS.find((d) => d.info.name === scene);
  if (!definition) throw new UnknownSceneError(scene);
  return definition.views(findLandmarks(model), width, height);
}
