import type { StoredCustomization } from '../../../shared/api/index.js';
import type { BuiltinAsset } from '../../assets/builtin-catalogue.js';
import type { FaceTopology } from '../../processing/photo-types.js';
import type { StoredAnalysis } from '../../processing/processing-repo.js';
import type { AvatarJoint, AvatarMesh, AvatarModel } from '../model.js';
import { builtInAnimations } from './animations/clips.js';
import { buildAssets } from './assets/build-assets.js';
import { liftShodSkin } from './assets/footwear.js';
import { chooseAssets } from './assets/resolve-assets.js';
import { seenHairColour } from './head-hair.js';
import { addFaceMorphTargets, FACE_LANDMARKS } from './face-rig/morph-targets.js';
import {
  boneScaleFactors,
  boneScaleTransforms,
  deformMesh,
  transformJoints,
} from './bone-scale.js';
import { BODY_SHAPE_SPECS } from './body-shapes.js';
import { withEyes } from './body-skeleton.js';
import { bodySkinTexture } from './body-skin-texture.js';
import { bodyTemplate } from './body-template.js';
import { toHex } from './colour.js';
import { EYE_COLOURS } from '../../../shared/appearance/eye-colours.js';
import { buildHead, sampledSkinTone, withHeadTexture, type HeadPhotos } from './head-builder.js';
import { fitNeck, fitToNeck, fittedSkin } from './neck-fit.js';
import { SKIN_FINISH, texturedMaterial } from './materials.js';
import { finishMesh } from './mesh-builder.js';
import { matchSeamToBody } from './neck-join.js';
import { rideAlong } from './outfits/ride-on-surface.js';
import { relaxCrotchNormals } from './crotch-normals.js';
import { addMorphNormals } from './morph-normals.js';
import { refineRegion } from './refine-region.js';
import { relaxRimNormals } from './rim-normals.js';
import { faceSurface } from './face-landmarks.js';
import { INNER_LIP_BOTTOM, INNER_LIP_TOP } from './face-rig/landmark-groups.js';
import type { Part } from './part.js';
import { toAvatarJoints } from './skeleton.js';
import { correctSkin, skinToneCorrection } from './skin-tone.js';

export interface BuildInput {
  /** What photo processing learned. */
  analysis: StoredAnalysis;
  /** The face mesh's triangles and canonical UVs. */
  topology: FaceTopology;
  /** The uploaded photos as stored (JPEG, PNG or WebP bytes). */
  photos: HeadPhotos;
  customization: StoredCustomization;
  catalogue: readonly BuiltinAsset[];
}

/**
 * Builds the avatar: this person's head from their photos on a parametric
 * body, skinned to a Mixamo-style skeleton, with the customization applied.
 */
export async function buildAvatar(input: BuildInput): Promise<AvatarModel> {
  const c = input.customization;
  const template = bodyTemplate(c.body, c.age);
  const correction = skinToneCorrection(c.skin_tone_correction);
  const sampled = sampledSkinTone(input.analysis);
  const skin = correctSkin(sampled, correction);
  // Encoded off this thread while the head is built; a failure meanwhile must not go unhandled.
  const bodyTexture = bodySkinTexture(skin);
  bodyTexture.catch(() => undefined);
  const head = await buildHead(
    input.analysis,
    input.topology,
    input.photos,
    template.proportions,
    sampled,
    correction,
    c.eye_texture,
    // The head is joined to the body's neck eased to the photographed size.
    (neck) => ({
      mesh: fitNeck(template, neck),
      ...fittedSkin(template, neck),
    }),
  );
  const chosen = chooseAssets(c, input.catalogue, seenHairColour(input.analysis));
  const parts: Part[] = [
    {
      name: 'Body',
      mesh: chosen.footwear ? liftShodSkin(head.body) : head.body,
      material: texturedMaterial('Skin', await bodyTexture, SKIN_FINISH),
    },
    ...head.parts,
    // Garments and hair were laid on the body's own neck: they follow it to the photographed one.
    ...(await buildAssets(chosen, template, head.frame)).map((part) => ({
      ...part,
      mesh: fitToNeck(part.mesh, template, head.frame.neckSize),
    })),
  ];

  const factors = boneScaleFactors(c.bone_scale);
  const transforms = boneScaleTransforms(template.skeleton, factors);
  const shaped = parts
    .filter((p) => p.mesh.triangleCount > 0)
    .map((p) => ({ ...p, before: p.mesh, mesh: deformMesh(p.mesh, transforms) }));
  // What lies on a garment (drawstrings, buttons) goes where the garment's surface goes: each
  // moved by its own skin weights, a drawstring parted from a full chest that was scaled.
  for (const piece of shaped) {
    const riding = piece.ridesOn;
    const surface = riding && shaped.find((q) => q.name === riding.on);
    if (riding && surface)
      rideAlong(piece.mesh, piece.before, riding, surface.before, surface.mesh);
  }
  const meshes = shaped.map((p) => finishMesh(p.mesh, p.name, p.material));
  const headMesh = meshes.find((m) => m.name === 'Head');
  const bodyMesh = meshes.find((m) => m.name === 'Body');
  if (head.frame.neck && headMesh && bodyMesh) {
    matchSeamToBody(headMesh, bodyMesh, head.frame.neck, FACE_LANDMARKS);
  }
  const joints = toAvatarJoints(
    transformJoints(withEyes(template.skeleton, head.frame.eyes).joints, transforms),
  );
  addFaceMorphTargets(meshes, joints);
  smoothFace(meshes, faceSurface(input.topology).rim);
  relaxCrotchNormals(meshes, joints);
  // The head's texture was mostly baked on another thread meanwhile. It goes on before the
  // shapes' normals, which weld a textured mesh's seams as `finishMesh` did.
  const textured = withHeadTexture(meshes, await head.texture.finish());
  addMorphNormals(textured);
  return {
    meshes: textured,
    joints,
    animations: builtInAnimations(joints),
    extras: {
      metadata: { ...c.metadata },
      body: c.body,
      body_build: BODY_SHAPE_SPECS[c.body].build,
      age: c.age,
      stature: Math.round(crownHeight(meshes) * 1000) / 1000,
      bone_scale: c.bone_scale,
      bone_scale_factors: factors,
      skin_tone: toHex(skin),
      skin_tone_sampled: toHex(sampled),
      skin_tone_correction: correction,
      eye_texture: c.eye_texture,
      eye_colour: EYE_COLOURS[c.eye_texture].iris,
      // Where the eyeballs' centres are (the LeftEye/RightEye bones), for whoever rigs the eyes.
      eye_centres: eyeCentres(joints),
      assets: chosen,
    },
  };
}

/**
 * The face is the 468 landmarks' mesh, faceted at its outline (corners of
 * 20–30° down the forehead and nose in profile): one step of curved
 * subdivision over the landmarks' triangles rounds it. After the blend
 * shapes, so the new vertices move as their edges' ends do. The lips' inner
 * edge stays whole even when the lips were closed onto each other: the
 * mouth's cavity hangs from it. Then the normals either side of the face's
 * `rim` are relaxed, so the turn where face and skull meet shades softly.
 */
function smoothFace(meshes: AvatarMesh[], rim: readonly number[]): void {
  const k = meshes.findIndex((m) => m.name === 'Head');
  if (k < 0) return;
  const face = (v: number) => v < FACE_LANDMARKS;
  const innerLip = new Set([...INNER_LIP_TOP, ...INNER_LIP_BOTTOM]);
  meshes[k] = refineRegion(
    meshes[k]!,
    (a, b, c) => face(a) && face(b) && face(c),
    (a, b) => innerLip.has(a) && innerLip.has(b),
  );
  relaxRimNormals(meshes[k]!, rim);
}

/** Height of the top of the head (not of hair or hats), in metres. */
function crownHeight(meshes: readonly AvatarMesh[]): number {
  let top = 0;
  for (const m of meshes) {
    if (m.name !== 'Head') continue;
    for (let i = 1; i < m.positions.length; i += 3) top = Math.max(top, m.positions[i]!);
  }
  return top;
}

function eyeCentres(joints: readonly AvatarJoint[]): Record<string, number[]> {
  const centres: Record<string, number[]> = {};
  for (const j of joints) {
    if (j.name === 'LeftEye' || j.name === 'RightEye') {
      centres[j.name] = j.position.map((v) => Math.round(v * 10000) / 10000);
    }
  }
  return centres;
}
