import type { AvatarMaterial } from '../model.js';
import type { MeshBuilder } from './mesh-builder.js';

/** A mesh in the making: geometry with skin influences, and what it is made of. */
export interface Part {
  name: string;
  mesh: MeshBuilder;
  material: AvatarMaterial;
}
