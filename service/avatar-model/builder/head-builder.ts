import type { FaceTopology, FaceAnalysis } from '../../processing/photo-types.js';
import type { StoredAnalysis } from '../../processing/processing-repo.js';
import type { EyeTexture } from '../../../shared/api/index.js';
import type { AvatarMesh, TextureImage } from '../model.js';
import { neckZ } from './body-skeleton.js';
import { parseHexColour, type Rgb } from './colour.js';
import { buildEyeSockets } from './eye-sockets.js';
import { buildEyes, placeEyes, type EyePlacement } from './eyes.js';
import { canonicalFace, faceSurface, LANDMARK } from './face-landmarks.js';
import { SEAM_BAND } from './head-texture.js';
import { bakeHeadTextureInParallel } from './head-texture-parallel.js';
import { ATLAS_LAYOUT, buildHeadMesh } from './head-mesh.js';
import { CROWN_ABOVE_FOREHEAD, fitHead, type HeadShape } from './head-shape.js';
import { HeadRadiusMap } from './head-radius-map.js';
import { SKIN_FINISH, solidMaterial, texturedMaterial } from './materials.js';
import { smoothNormals, type MeshBuilder } from './mesh-builder.js';
import type { Part } from './part.js';
import { decodeView, levelledViews, withoutRegion, type PhotoView } from './photo-views.js';
import { matchedGains, photoShading } from './photo-shading.js';
import type { Proportions } from './proportions.js';
import { skinRigid } from './skin-weights.js';
import { boneIndex } from './skeleton.js';
import { buildBrowsAndLashes, openEyes } from './head-eyelids.js';
import { buildMouth, closeLips } from './head-mouth.js';
import { buildEars } from './head-ears.js';
import { measureNeck, type NeckSize } from './head-neck.js';
import { seenHairColour } from './head-hair.js';
import { fitSkullToPhotos, matchSeriesScale, type FaceSpan } from './head-silhouette.js';
import { depthScale } from './affine-camera.js';
import { correctImage } from './skin-tone.js';
import { jpegTexture } from './texture-image.js';
import { add, type Vec3 } from './vec3.js';
import { joinHeadToBody, type NeckSeam } from './neck-join.js';
import { filletNape } from './nape-fillet.js';
import { napeRise } from './neck-fit.js';
import { FACE_LANDMARKS } from './face-rig/morph-targets.js';
import { BROWS } from './face-rig/landmark-groups.js';

/** Sides of the head texture atlas: the smallest that holds the photographed face's detail. */
export const HEAD_ATLAS_SIZES = [1024, 2048] as const;

/**
 * The atlas side for a frontal face this many photo pixels tall: the face
 * chart is a fixed share of the atlas, and a bigger atlas than the photo's
 * pixels would only cost build time and file size.
 */
export function headAtlasSize(faceHeightPixels: number): number {
  const needed = faceHeightPixels / (ATLAS_LAYOUT.face.bottom - ATLAS_LAYOUT.face.top);
  return HEAD_ATLAS_SIZES.find((size) => size >= needed) ?? HEAD_ATLAS_SIZES.at(-1)!;
}

/** The skull's centre sits this far (metres) in front of the body's neck axis. */
const NECK_BEHIND_CENTRE = 0.012;

export interface HeadPhotos {
  frontal: Uint8Array;
  side1: Uint8Array;
  side2: Uint8Array;
}

/**
 * Where the head ended up, for everything that sits on it (hair, hats,
 * glasses): the canonical face frame moved by `offset` into model space.
 */
export interface HeadFrame {
  offset: Vec3;
  shape: HeadShape;
  /** The 468 face points in model space. */
  points: Vec3[];
  /** The face's outline (its rim), model space. */
  rim: Vec3[];
  eyes: EyePlacement[];
  /** The head's outer surface, for laying things on it. */
  surface: HeadRadiusMap;
  /**
   * Where the head's open lower edge lies on the body's neck (head vertex indices, positions
   * before bone scaling, the body triangles under them); null if the head stayed closed.
   */
  neck: NeckSeam | null;
  /** The neck's size as the photos' outlines under the chin show it, when they do. */
  neckSize: NeckSize | null;
}

/**
 * The body the head is joined to: its skin (model space, skinned) with the neck
 * eased to the photographed size, and the signed distance from that skin
 * (exact out to `reach`, which it reads beyond).
 */
export interface NeckBody {
  mesh: MeshBuilder;
  distance: (p: Vec3, reach: number) => number;
  /** The body's skin texture coordinates at a point on or near its skin. */
  skinUv: (p: Vec3) => [number, number];
}

/** The head's texture being baked: `finish` once the rest of the avatar is built. */
export interface HeadTexture {
  finish(): Promise<TextureImage>;
}

export interface HeadBuild {
  /**
   * The head first, then what sits on it. The head wears its skin tone until
   * its texture, mostly baked off this thread while the rest of the avatar is
   * built, is finished and put on with `withHeadTexture`.
   */
  parts: Part[];
  texture: HeadTexture;
  frame: HeadFrame;
  /** The body's skin the head was joined to: the body part must be this one. */
  body: MeshBuilder;
}

export async function buildHead(
  analysis: StoredAnalysis,
  topology: FaceTopology,
  photos: HeadPhotos,
  proportions: Proportions,
  skinTone: Rgb,
  skinCorrection: number,
  eyeColour: EyeTexture,
  bodyFor: (neck: NeckSize | null) => NeckBody,
): Promise<HeadBuild> {
  const frontal = analysis.photos['image-frontal'];
  const face = frontal.faces[0];
  if (!face) throw new Error('the frontal photo has no face to build the head from');
  const canonical = canonicalFace(face.mesh, proportions.headHeight / (1 + CROWN_ABOVE_FOREHEAD));
  // The turned photos tell how deep the face really is (the landmarks' own depth is too flat).
  const depth = depthScale(canonical.points, sidePhotoMeshes(analysis));
  // The photos' cameras are fitted to the landmarks as photographed; the avatar's own eyes are open.
  const photoPoints = canonical.points.map((p): Vec3 => [p[0], p[1], p[2] * depth]);
  const points = photoPoints.map((p): Vec3 => [...p]);
  openEyes(points);
  closeLips(points);
  const surface = faceSurface(topology);

  const referenceSkin = face.skinColor ?? analysis.skin_tone;
  const sources: [string, Uint8Array, StoredAnalysis['photos']['image-frontal']][] = [
    ['frontal', photos.frontal, frontal],
    ['side-1', photos.side1, analysis.photos['image-side-1']],
    ['side-2', photos.side2, analysis.photos['image-side-2']],
  ];
  const decoded = await Promise.all(
    sources
      .map(([name, bytes, photo]) => ({ name, bytes, photo, face: photo?.faces[0] }))
      .filter(
        (s): s is typeof s & { face: FaceAnalysis } => s.face !== undefined && s.photo.width > 0,
      )
      .map((s) => decodeView(s.name, s.bytes, s.photo, s.face, photoPoints, referenceSkin)),
  );
  const spans = new Map(
    sources
      .filter(([, , photo]) => photo?.faces[0])
      .map(([name, , photo]) => [name, faceSpan(photo.faces[0]!.mesh)] as const),
  );
  // One set of cameras for the skull fit, the neck, the texture and the ears: sized to the
  // series, level.
  const centre = mean(photoPoints);
  const sized = matchSeriesScale(decoded, spans, centre);
  const views = levelledViews(sized, centre);
  // Hair makes the photographed outline bigger than the skull.
  const hairSeen = analysis.hair
    ? analysis.hair.style !== 'bald'
    : seenHairColour(analysis) !== null;
  const shape = fitSkullToPhotos(fitHead(points), views, hairSeen, {
    points,
    triangles: surface.triangles,
    rim: surface.rim,
  });
  const mesh = buildHeadMesh(points, surface, shape);
  const chin = points[152]!;
  const offset: Vec3 = [
    0,
    proportions.chinY - chin[1],
    neckZ(proportions) + NECK_BEHIND_CENTRE - shape.centre[2],
  ];
  // The body's neck axis, moved back into the canonical frame the photos' cameras know. Through
  // the levelled cameras too: as fitted, they read the three fixtures' one neck 7.2–8.2 cm deep
  // (half-depth), five of six readings beyond belief, so two fixtures kept the body's 5.5 cm and
  // one got 7.2; levelled they agree (7.12, 7.09, 6.93 cm).
  const neckSize = measureNeck(
    points,
    views,
    [0, 0, shape.centre[2] - NECK_BEHIND_CENTRE],
    proportions.neckRadius,
  );
  const body = bodyFor(neckSize);
  // The back of the skull runs into the back of the neck through a fillet, not a crease.
  filletNape(
    mesh,
    // The skull's first ring is the rim's copy, numbered right after the face (one more closes it).
    points.length + surface.rim.length + 1,
    shape,
    { axisZ: shape.centre[2] - NECK_BEHIND_CENTRE, heldTo: chin[1] + napeRise(proportions) },
    (p, reach) => body.distance(add(p, offset), reach),
  );
  // How far each head vertex is from the body's skin: where the neck runs into the head. Read
  // as far as the texture's fade reaches: read only to 2 cm, every head vertex away from the
  // neck read 2 cm, and the photos showed at 74 % over the whole head.
  const neckDistance = Array.from({ length: mesh.vertexCount }, (_, v) =>
    body.distance(add(mesh.position(v), offset), SEAM_BAND),
  );
  // Where the body's skin texture would lie on each head vertex: at the neck the head's texture
  // wears the body's grain, which ran on below the seam in a stepped edge against a plain head.
  const grainUv = new Float64Array(2 * mesh.vertexCount);
  for (let v = 0; v < mesh.vertexCount; v++) {
    grainUv.set(body.skinUv(add(mesh.position(v), offset)), 2 * v);
  }
  const normals = smoothNormals(mesh.positions, mesh.indices);
  const shading = photoShading(mesh, normals, views);
  const gains = matchedGains(mesh, normals, views, shading);
  // The texture and the ears take each turned photo's colours as matched through its light.
  const matched = views.map((view, k) => ({ ...view, gain: gains[k]! }));
  const ears = await buildEars(
    points,
    mesh,
    shape,
    matched,
    (rgb) => correctImage(rgb, skinCorrection),
    skinTone,
    normals,
  );
  // The skull under an ear must not wear the photographed ear as well: seen from in front
  // or behind the real ear, that ghost showed as a ring and streaks round it.
  const skullViews = matched.map((view) =>
    ears.photographed
      .filter((ear) => ear.view === view.name)
      .reduce((seen, ear) => withoutRegion(seen, ear.region), view),
  );
  // Mostly baked off this thread while the eyes, mouth, brows and the body are built.
  const texture = headTexture(
    mesh,
    normals,
    skullViews,
    shading,
    skinTone,
    skinCorrection,
    headAtlasSize(faceHeightPixels(face.mesh)),
    neckDistance,
    grainUv,
  );
  const eyes = placeEyes(points);
  const eyeParts = buildEyes(eyes, eyeColour);
  const rest: Part[] = [
    ...eyeParts,
    buildEyeSockets(points, eyes),
    ...ears.parts,
    ...buildMouth(points),
    ...buildBrowsAndLashes(
      points,
      photoPoints,
      shape.centre,
      views.find((v) => v.name === 'frontal'),
      browLight(shading, views),
    ),
  ];
  translate(mesh, offset);
  skinRigid(mesh, 0, 'Head');
  for (const part of rest) {
    translate(part.mesh, offset);
    if (eyeParts.includes(part)) skinToEyes(part.mesh);
    else skinRigid(part.mesh, 0, 'Head');
  }
  // Things laid on the head see it whole, as before it was opened at the neck.
  const headSurface = new HeadRadiusMap(
    add(shape.centre, offset),
    mesh,
    ears.parts.map((part) => part.mesh),
  );
  const joined = joinHeadToBody(mesh, body.mesh, neckDistance, FACE_LANDMARKS);
  const parts: Part[] = [
    {
      name: 'Head',
      mesh: joined?.head ?? mesh,
      material: solidMaterial(HEAD_SKIN, skinTone, SKIN_FINISH),
    },
    ...rest,
  ];
  return {
    parts,
    texture,
    frame: {
      offset,
      shape,
      points: points.map((p) => add(p, offset)),
      rim: surface.rim.map((i) => add(points[i]!, offset)),
      surface: headSurface,
      neck: joined?.seam ?? null,
      neckSize,
      eyes: eyes.map((e) => ({ centre: add(e.centre, offset), radius: e.radius })),
    },
    body: body.mesh,
  };
}

const HEAD_SKIN = 'HeadSkin';

/** The finished meshes with the head's baked texture put on the head. */
export function withHeadTexture(meshes: AvatarMesh[], texture: TextureImage): AvatarMesh[] {
  const material = texturedMaterial(HEAD_SKIN, texture, SKIN_FINISH);
  return meshes.map((m) => (m.name === 'Head' ? { ...m, material } : m));
}

/** The head's texture, begun: `finish` paints what is left of it and encodes it. */
function headTexture(
  mesh: MeshBuilder,
  normals: Float32Array,
  views: PhotoView[],
  shading: Float32Array,
  skinTone: Rgb,
  correction: number,
  size: number,
  neckDistance: readonly number[],
  grainUv: Float64Array,
): HeadTexture {
  const fallback: Rgb = [skinTone[0] * 255, skinTone[1] * 255, skinTone[2] * 255];
  const bake = bakeHeadTextureInParallel({
    mesh,
    normals,
    views,
    fallback,
    size,
    seamDistance: neckDistance,
    grainUv,
    shading,
    landmarks: FACE_LANDMARKS,
  });
  let encoded: Promise<TextureImage> | undefined;
  const finish = () =>
    (encoded ??= bake.finish().then((rgb) => {
      correctImage(rgb, correction);
      return jpegTexture(rgb, size, size);
    }));
  // Painted by the helper alone, it is encoded as soon as it is whole, while the build goes on;
  // a failure meanwhile must not go unhandled before `finish` is called.
  if (bake.helperPaintsAll) finish().catch(() => undefined);
  return { finish };
}

/**
 * The frontal photo's light factor over the brows: the Head mesh starts with
 * the 468 landmarks, so a landmark's index is its vertex's.
 */
function browLight(shading: Float32Array, views: readonly PhotoView[]): number {
  const k = views.findIndex((v) => v.name === 'frontal');
  if (k < 0) return 1;
  const brow = [
    ...BROWS.right.upper,
    ...BROWS.right.lower,
    ...BROWS.left.upper,
    ...BROWS.left.lower,
  ];
  return brow.reduce((sum, i) => sum + shading[i * views.length + k]!, 0) / brow.length;
}

/** Each eyeball turns with its own bone (Ready Player Me's LeftEye and RightEye). */
function skinToEyes(mesh: MeshBuilder): void {
  const left = boneIndex('LeftEye');
  const right = boneIndex('RightEye');
  for (let v = 0; v < mesh.vertexCount; v++) {
    mesh.setInfluences(v, [mesh.position(v)[0] > 0 ? left : right], [1]);
  }
}

function translate(mesh: MeshBuilder, offset: Vec3): void {
  for (let v = 0; v < mesh.vertexCount; v++) mesh.setPosition(v, add(mesh.position(v), offset));
}

/** The face's height in the photo: its landmarks' vertical extent, pixels. */
function faceHeightPixels(mesh: FaceAnalysis['mesh']): number {
  const ys = mesh.map((p) => p[1]);
  return Math.max(...ys) - Math.min(...ys);
}

/** Where the landmarks put the chin and the face's sides. */
function faceSpan(mesh: FaceAnalysis['mesh']): FaceSpan {
  let left = Infinity;
  let right = -Infinity;
  for (const p of mesh) {
    left = Math.min(left, p[0]);
    right = Math.max(right, p[0]);
  }
  return { chinY: mesh[LANDMARK.chin]![1], left, right };
}

function mean(points: readonly Vec3[]): Vec3 {
  const sum = points.reduce<Vec3>((s, p) => add(s, p), [0, 0, 0]);
  return [sum[0] / points.length, sum[1] / points.length, sum[2] / points.length];
}

/** The landmarks of each turned photo that found a face. */
function sidePhotoMeshes(analysis: StoredAnalysis): FaceAnalysis['mesh'][] {
  return [analysis.photos['image-side-1'], analysis.photos['image-side-2']]
    .map((photo) => photo?.faces[0]?.mesh)
    .filter((mesh): mesh is FaceAnalysis['mesh'] => mesh !== undefined && mesh.length > 0);
}

/** The sampled skin tone (sRGB 0..1), before correction. */
export function sampledSkinTone(analysis: StoredAnalysis): Rgb {
  const hex =
    analysis.skin_tone ?? analysis.photos['image-frontal'].faces[0]?.skinColor ?? '#c69c82';
  return parseHexColour(hex).rgb;
}
