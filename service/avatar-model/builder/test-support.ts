/**
 * Fixtures and helpers for the builder's tests: the three fixture people's
 * analyses (copied from real processing output) and their photos from the
 * end-to-end fixtures.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { NodeIO, type Document } from '@gltf-transform/core';
import { KHRMaterialsSpecular } from '@gltf-transform/extensions';
import sharp from 'sharp';
import type { StoredCustomization, UploadPhotoField } from '../../../shared/api/index.js';
import { BUILTIN_ASSETS } from '../../assets/builtin-catalogue.js';
import { initialCustomization } from '../../customization/defaults.js';
import type { FaceTopology } from '../../processing/photo-types.js';
import type { StoredAnalysis } from '../../processing/processing-repo.js';
import type { AvatarMesh, AvatarModel } from '../model.js';
import { buildAvatar, type BuildInput } from './build-avatar.js';
import { writeGlb } from './write-glb.js';
import { towardCamera, type AffineCamera } from './affine-camera.js';
import type { PhotoView } from './photo-views.js';
import { normalize, vec3At, type Vec3 } from './vec3.js';
import { firstHit } from './outfits/skin-pokes.js';
import { LEFT_LIDS, RIGHT_LIDS } from './face-rig/landmark-groups.js';
import { openEyes } from './head-eyelids.js';

export const PEOPLE = ['person-a', 'person-b', 'person-c'] as const;
export type Person = (typeof PEOPLE)[number];

const HERE = import.meta.dirname;
const PHOTOS = path.resolve(HERE, '../../../e2e/fixtures/photos');

const readJson = <T>(file: string): T =>
  JSON.parse(readFileSync(path.join(HERE, 'test-fixtures', file), 'utf8')) as T;

export const topology = readJson<FaceTopology>('face-topology.json');

/**
 * The fixture people's photos changed before Human saw them
 * (`scripts/fixture-analyses.ts` makes their analyses):
 * - `crop-900`: cropped to the top-left 900², the landmarks mapped back to
 *   the whole photo: the same face, its landmarks a few pixels apart as
 *   another framing puts them;
 * - `wide`, `narrow`, `long`: stretched sideways by 1.15 or 0.87, or
 *   upwards by 1.12, and built from the stretched photos: broader, narrower
 *   and longer heads than the one scan the fixture people share;
 * - `tilted`: turned 8° (anticlockwise) about the photo's centre, the corners
 *   filled with the backdrop, and built from the turned photos: a head rolled
 *   in its photos, as a person at a booth holds it.
 * Checks of the head's shape and fit run on them too, so they hold beyond
 * one landmark set, one head and one upright pose.
 */
export const VARIANTS = {
  'crop-900': { crop: { left: 0, top: 0, width: 900, height: 900 } },
  wide: { stretch: { x: 1.15, y: 1 } },
  narrow: { stretch: { x: 0.87, y: 1 } },
  long: { stretch: { x: 1, y: 1.12 } },
  tilted: { tilt: 8 },
} as const satisfies Record<
  string,
  { crop: CropBox } | { stretch: { x: number; y: number } } | { tilt: number }
>;
export type Variant = keyof typeof VARIANTS;
export interface CropBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type Subject = Person | `${Person}@${Variant}`;
export const CROPPED = PEOPLE.map((p) => `${p}@crop-900` as const);
/** Every person with their photos changed every way VARIANTS changes them (stretched, tilted). */
export const RESHAPED: Subject[] = PEOPLE.flatMap((p) =>
  (Object.keys(VARIANTS) as Variant[])
    .filter((v) => !('crop' in VARIANTS[v]))
    .map((v) => `${p}@${v}` as const),
);

/** Every subject: the fixture people as photographed, cropped, stretched and tilted. */
export const SUBJECTS: readonly Subject[] = [...PEOPLE, ...CROPPED, ...RESHAPED];

export function personOf(subject: Subject): Person {
  return subject.split('@')[0] as Person;
}

export function analysisOf(subject: Subject): StoredAnalysis {
  const [person, variant] = subject.split('@');
  return readJson<StoredAnalysis>(`${variant ? `${person}.${variant}` : person}.analysis.json`);
}

/** Which of a build's photos each upload field is. */
export const PHOTO_OF_FIELD = {
  'image-frontal': 'frontal',
  'image-side-1': 'side1',
  'image-side-2': 'side2',
} as const satisfies Record<UploadPhotoField, keyof BuildInput['photos']>;

export function photosOf(person: Person): BuildInput['photos'] {
  const read = (name: string) =>
    new Uint8Array(readFileSync(path.join(PHOTOS, person, `${name}.jpg`)));
  return { frontal: read('frontal'), side1: read('side-1'), side2: read('side-2') };
}

/**
 * A photo changed as a stretched or tilted variant's: the same bytes each
 * time, for Human and for the builder.
 */
export async function reshaped(
  photo: Uint8Array,
  how: { stretch: { x: number; y: number } } | { tilt: number },
): Promise<Uint8Array> {
  const { width, height } = await sharp(photo).metadata();
  if ('stretch' in how) {
    return new Uint8Array(
      await sharp(photo)
        .resize(Math.round(width! * how.stretch.x), Math.round(height! * how.stretch.y), {
          fit: 'fill',
        })
        .jpeg({ quality: 92 })
        .toBuffer(),
    );
  }
  // Turned on a larger canvas of the backdrop's colour (a corner's), then cut back to the photo's size.
  const { data } = await sharp(photo)
    .extract({ left: 0, top: 0, width: 1, height: 1 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const turned = await sharp(photo)
    .removeAlpha()
    .rotate(-how.tilt, { background: { r: data[0]!, g: data[1]!, b: data[2]! } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(
    await sharp(turned.data, { raw: turned.info })
      .extract({
        left: Math.floor((turned.info.width - width!) / 2),
        top: Math.floor((turned.info.height - height!) / 2),
        width: width!,
        height: height!,
      })
      .jpeg({ quality: 92 })
      .toBuffer(),
  );
}

const variantPhotos = new Map<Subject, Promise<BuildInput['photos']>>();

/** The photos a subject's analysis was made from (a crop's are the whole photos). */
export function photosFor(subject: Subject): Promise<BuildInput['photos']> {
  let made = variantPhotos.get(subject);
  if (!made) {
    const [person, variant] = subject.split('@') as [Person, Variant | undefined];
    const photos = photosOf(person);
    const how = variant ? VARIANTS[variant] : undefined;
    made =
      how && !('crop' in how)
        ? (async () => ({
            frontal: await reshaped(photos.frontal, how),
            side1: await reshaped(photos.side1, how),
            side2: await reshaped(photos.side2, how),
          }))()
        : Promise.resolve(photos);
    variantPhotos.set(subject, made);
  }
  return made;
}

export function styleId(style: string): string {
  const asset = BUILTIN_ASSETS.find((a) => a.style === style);
  if (!asset) throw new Error(`no built-in asset ${style}`);
  return asset.id;
}

export const BARE: StoredCustomization = initialCustomization();

/** A customization: the bare avatar with some fields changed. */
export function customize(change: Partial<StoredCustomization> = {}): StoredCustomization {
  return { ...BARE, ...change, assets: { ...BARE.assets, ...change.assets } };
}

export async function inputFor(
  subject: Subject,
  customization: StoredCustomization,
): Promise<BuildInput> {
  return {
    analysis: analysisOf(subject),
    topology,
    photos: await photosFor(subject),
    customization,
    catalogue: BUILTIN_ASSETS,
  };
}

/**
 * How much further than the builder's relaxed opening `wideEyedInput` opens
 * the lids: the upper lids and the folds above them, and the lower lids.
 */
const WIDE_UPPER = 1.6;
const WIDE_LOWER = 1.3;

/**
 * person-a's build input as if photographed with the eyes wide open: the
 * fixtures' eyes are all photographed closed, so every avatar built from
 * them has the builder's own relaxed opening. In the frontal photo's
 * landmarks the lids are opened as the builder opens them (`openEyes`, y
 * up), and then further: a stare with white above the iris, which the
 * builder then leaves as photographed.
 */
export async function wideEyedInput(customization: StoredCustomization): Promise<BuildInput> {
  const input = await inputFor('person-a', customization);
  const face = input.analysis.photos['image-frontal'].faces[0]!;
  const before = face.mesh.map((p): Vec3 => [p[0]!, -p[1]!, p[2]!]);
  const opened = before.map((p): Vec3 => [...p]);
  openEyes(opened);
  const widen = (indices: readonly number[], factor: number) => {
    for (const i of indices)
      opened[i]![1] = before[i]![1] + factor * (opened[i]![1] - before[i]![1]);
  };
  for (const lids of [LEFT_LIDS, RIGHT_LIDS]) {
    widen([...lids.upper, ...lids.crease], WIDE_UPPER);
    widen(lids.lower, WIDE_LOWER);
  }
  face.mesh = opened.map((p): Vec3 => [p[0], -p[1], p[2]]);
  return input;
}

/**
 * A person's build input as if their photos had been shot at `factor` times
 * the resolution: the photos upscaled, the analysis's pixel coordinates
 * scaled alike. It takes the larger head atlas once the face is tall enough.
 */
export async function sharperInput(
  person: Person,
  factor: number,
  customization: StoredCustomization,
): Promise<BuildInput> {
  const up = async (bytes: Uint8Array) => {
    const { width } = await sharp(bytes).metadata();
    return new Uint8Array(
      await sharp(bytes)
        .resize(Math.round(width! * factor))
        .jpeg({ quality: 92 })
        .toBuffer(),
    );
  };
  const photos = photosOf(person);
  const analysis = analysisOf(person);
  const scaled: StoredAnalysis = {
    ...analysis,
    photos: Object.fromEntries(
      Object.entries(analysis.photos).map(([key, photo]) => [
        key,
        {
          ...photo,
          width: photo.width * factor,
          height: photo.height * factor,
          faces: photo.faces.map((f) => ({
            ...f,
            box: f.box.map((v) => v * factor) as typeof f.box,
            faceHeight: f.faceHeight * factor,
            mesh: f.mesh.map((p) => p.map((v) => v * factor) as typeof p),
          })),
        },
      ]),
    ) as StoredAnalysis['photos'],
  };
  return {
    ...(await inputFor(person, customization)),
    analysis: scaled,
    photos: {
      frontal: await up(photos.frontal),
      side1: await up(photos.side1),
      side2: await up(photos.side2),
    },
  };
}

const builds = new Map<string, Promise<AvatarModel>>();

/** Builds (once per subject and customization within a test file) the avatar. */
export function build(
  subject: Subject,
  change: Partial<StoredCustomization> = {},
): Promise<AvatarModel> {
  const customization = customize(change);
  const key = `${subject}|${JSON.stringify(customization)}`;
  let made = builds.get(key);
  if (!made) {
    made = inputFor(subject, customization).then(buildAvatar);
    builds.set(key, made);
  }
  return made;
}

/** The avatar of person-a in a top (and its trousers) alone: no hair, glasses or shoes. */
export function wearingTop(
  top: string,
  change: Pick<Partial<StoredCustomization>, 'body' | 'age'> = {},
): Promise<AvatarModel> {
  return build('person-a', {
    ...change,
    assets: {
      clothing: { id: styleId(top) },
      hair_and_headwear: null,
      eyewear: null,
      footwear: null,
    },
  });
}

/**
 * Every place a ray from `from` along the unit `direction` meets the mesh,
 * in order, as distances from `from` (m): each next hit is looked for up to
 * `reach` on from just past the last.
 */
export function rayHits(m: AvatarMesh, from: Vec3, direction: Vec3, reach = 2): number[] {
  const faces = Array.from({ length: m.indices.length / 3 }, (_, t) => t);
  const hits: number[] = [];
  let travelled = 0;
  for (;;) {
    const [x, y, z] = from.map((c, k) => c + direction[k]! * travelled) as Vec3;
    const hit = firstHit(x, y, z, direction, m.positions, m.indices, faces, reach);
    if (!hit) return hits;
    travelled += hit.distance + 1e-5;
    hits.push(travelled);
  }
}

interface ValidationReport {
  issues: {
    numErrors: number;
    numWarnings: number;
    numInfos: number;
    messages: { code: string; message: string; severity: number; pointer?: string }[];
  };
}

// The validator ships no typings; this is the one call the tests make.
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array): Promise<ValidationReport>;
};

export const validate = (glb: Uint8Array) => validator.validateBytes(new Uint8Array(glb));

export const readGlb = (glb: Uint8Array): Promise<Document> =>
  new NodeIO().registerExtensions([KHRMaterialsSpecular]).readBinary(glb);

/** The GLB's JSON chunk. */
export function glbJson(glb: Uint8Array): Record<string, unknown> & {
  scenes: { nodes: number[]; extras?: Record<string, unknown> }[];
  nodes: {
    name?: string;
    children?: number[];
    mesh?: number;
    skin?: number;
    translation?: number[];
  }[];
  skins?: { joints: number[] }[];
  extras?: Record<string, unknown>;
  asset: { extras?: Record<string, unknown> };
} {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const length = view.getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

export const writeModel = writeGlb;

/** Vertex v of a mesh, as a point. */
export const vertexAt = (m: AvatarMesh, v: number): [number, number, number] =>
  vec3At(m.positions, v);

export function mesh(model: AvatarModel, name: string): AvatarMesh {
  const found = model.meshes.find((m) => m.name === name);
  if (!found) throw new Error(`no mesh ${name} in ${model.meshes.map((m) => m.name).join(', ')}`);
  return found;
}

export function hasMesh(model: AvatarModel, name: string): boolean {
  return model.meshes.some((m) => m.name === name);
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export function bounds(meshes: AvatarMesh | AvatarMesh[]): Bounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const m of Array.isArray(meshes) ? meshes : [meshes]) {
    for (let i = 0; i < m.positions.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, m.positions[i + k]!);
        max[k] = Math.max(max[k]!, m.positions[i + k]!);
      }
    }
  }
  return { min, max };
}

/** Width (x extent) of a mesh within a band of heights. */
export function widthAt(m: AvatarMesh, y: number, band = 0.02): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < m.positions.length; i += 3) {
    if (Math.abs(m.positions[i + 1]! - y) > band) continue;
    lo = Math.min(lo, m.positions[i]!);
    hi = Math.max(hi, m.positions[i]!);
  }
  return hi - lo;
}

export function joint(model: AvatarModel, name: string): [number, number, number] {
  const j = model.joints.find((x) => x.name === name);
  if (!j) throw new Error(`no joint ${name}`);
  return j.position;
}

export function triangleCount(model: AvatarModel): number {
  return model.meshes.reduce((sum, m) => sum + m.indices.length / 3, 0);
}

/** Mean absolute difference of two equally long arrays. */
export function meanAbsDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

export function meanLuma(rgba: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < rgba.length; i += 4)
    sum += 0.2126 * rgba[i]! + 0.7152 * rgba[i + 1]! + 0.0722 * rgba[i + 2]!;
  return sum / (rgba.length / 4);
}

/** A square photo crop made up by a test, seen through `camera`, with no colour correction. */
export function syntheticView(
  name: string,
  rgb: Uint8Array,
  size: number,
  camera: AffineCamera,
): PhotoView {
  return {
    name,
    rgb,
    width: size,
    height: size,
    originX: 0,
    originY: 0,
    scale: 1,
    camera,
    toward: towardCamera(camera),
    gain: [1, 1, 1],
    subject: null,
  };
}

/**
 * The model posed by its blend shapes at `weights` (by name), as a viewer
 * blends them: positions and normals, the normals renormalised.
 */
export function withShapes(model: AvatarModel, weights: Record<string, number>): AvatarModel {
  const meshes = model.meshes.map((m) => {
    const active = (m.morphTargets ?? []).filter((t) => (weights[t.name] ?? 0) !== 0);
    if (active.length === 0) return m;
    const positions = Float32Array.from(m.positions);
    const normals = Float32Array.from(m.normals);
    for (const target of active) {
      const w = weights[target.name]!;
      for (let i = 0; i < positions.length; i++) {
        positions[i] = positions[i]! + w * target.positions[i]!;
        if (target.normals) normals[i] = normals[i]! + w * target.normals[i]!;
      }
    }
    for (let v = 0; v < normals.length; v += 3) {
      normals.set(normalize([normals[v]!, normals[v + 1]!, normals[v + 2]!]), v);
    }
    return { ...m, positions, normals };
  });
  return { ...model, meshes };
}
