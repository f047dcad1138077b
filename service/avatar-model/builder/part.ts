import type { AvatarMaterial } from '../model.js';
import type { MeshBuilder } from './mesh-builder.js';
import type { Riding } from './outfits/ride-on-surface.js';

/** A mesh in the making: geometry with skin influences, and what it is made of. */
export interface Part {
  name: string;
  mesh: MeshBuilder;
  material: AvatarMaterial;
  /** Vertices that keep their place on another part's surface when the avatar is reshaped. */
  ridesOn?: Riding;
}
