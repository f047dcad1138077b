import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Suite } from './suite.js';
import type { AvatarModel } from '../service/avatar-model/model.js';
import { buildAvatar } from '../service/avatar-model/builder/build-avatar.js';
import {
  cameraScale,
  fitRigidCamera,
  levelled,
  rescaled,
  towardCamera,
  type AffineCamera,
} from '../service/avatar-model/builder/affine-camera.js';
import {
  analysisOf,
  inputFor,
  PEOPLE,
  photosOf,
  withShapes,
} from '../service/avatar-model/builder/test-support.js';
import {
  cross,
  dot,
  normalize,
  scale,
  sub,
  type Vec3,
} from '../service/avatar-model/builder/vec3.js';
import { closedEyes } from '../service/avatar-model/builder/head-eyelids.js';
import { maskTop } from '../service/avatar-model/builder/head-silhouette.js';
import { customizationForBodyType } from '../service/customization/defaults.js';
import { loadHuman } from '../service/processing/human-loader.js';
import type { RgbImage } from '../service/processing/pixel-stats.js';
import { subjectMask } from '../service/processing/subject-mask.js';
import type { View } from '../service/render/camera.js';
import { renderViews } from '../service/render/render-views.js';

/**
 * The likeness suite: per fixture person and photo, the head silhouette's
 * IoU between the photo and the avatar rendered with the camera recovered
 * for that photo, and Human's face-description (faceres) similarity between
 * every photo and every avatar seen from the same viewpoint.
 *
 * As a diagnostic it also prints the faceres matrices with each avatar's
 * eyes shut where its photo's are (the eyeBlink shapes, per eye as the
 * photo's landmarks show it): the builder opens eyes photographed closed,
 * and the fixtures' eyes are closed, so the first measure compares open
 * eyes with shut ones as well as the faces.
 */

const VIEWS = [
  ['frontal', 'image-frontal', 'frontal'],
  ['side 1', 'image-side-1', 'side1'],
  ['side 2', 'image-side-2', 'side2'],
] as const;
/** Photos and renders are compared at this side (the fixtures are 1024²). */
const SIDE = 512;
const IOU_GOAL = 0.85;
/** A camera this far away with a matching narrow field of view is as good as affine. */
const CAMERA_DISTANCE = 20;

type Embedding = number[];

/**
 * Human's `match.similarity` (order 2, multiplier 25, mapped from [0.2, 0.8])
 * without its rounding to two decimals: rounded, a third of the fixtures'
 * cases tie, and a tie is no ranking.
 */
export function similarity(a: Embedding, b: Embedding): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  const distance = Math.sqrt(25 * sum) / 100;
  return Math.min(1, Math.max(0, (1 - distance - 0.2) / 0.6));
}

interface ViewResult {
  iou: number;
  photo: Embedding | null;
  avatar: Embedding | null;
  /** The avatar with its eyes shut where the photo's are. */
  avatarEyesAsPhoto: Embedding | null;
}

/**
 * Draws the model through `view` over the photo's backdrop colour; returns the
 * picture and the avatar's mask (alpha at least a half).
 */
function renderOnBackdrop(
  model: AvatarModel,
  view: View,
  backdrop: readonly number[],
): { picture: Buffer; mask: Uint8Array } {
  const rgba = renderViews(model, [view], SIDE, SIDE);
  const mask = new Uint8Array(SIDE * SIDE);
  const picture = Buffer.alloc(SIDE * SIDE * 3);
  for (let i = 0; i < SIDE * SIDE; i++) {
    const alpha = rgba[4 * i + 3]! / 255;
    mask[i] = alpha >= 0.5 ? 1 : 0;
    for (let c = 0; c < 3; c++) {
      picture[3 * i + c] = Math.round(rgba[4 * i + c]! * alpha + backdrop[c]! * (1 - alpha));
    }
  }
  return { picture, mask };
}

/**
 * The renderer's pinhole camera that stands in for an affine photo camera
 * (model point → photo pixel), scaled to an image of `size` pixels: far away,
 * looking along the affine camera's depth axis, so that every model point
 * lands where the affine camera puts it.
 */
export function viewFromAffine(camera: AffineCamera, centre: Vec3, size: number): View {
  const ax: Vec3 = [camera.x[0], camera.x[1], camera.x[2]];
  const ay: Vec3 = [camera.y[0], camera.y[1], camera.y[2]];
  const pixelsPerMetre = (Math.hypot(...ax) + Math.hypot(...ay)) / 2;
  const right = normalize(ax);
  const down = normalize(ay);
  const up = normalize(sub(scale(down, -1), scale(right, -dot(down, right))));
  const back = cross(right, up);
  const half = size / 2;
  // Image-centre offsets: W/2 + s·right·(p − eye) = s·right·p + tx, and likewise for y (down).
  const eye: Vec3 = [0, 0, 0];
  const along = (axis: Vec3, amount: number) => {
    for (let k = 0; k < 3; k++) eye[k] = eye[k]! + axis[k]! * amount;
  };
  along(right, (half - camera.x[3]) / pixelsPerMetre);
  along(up, (camera.y[3] - half) / pixelsPerMetre);
  along(back, dot(back, centre) + CAMERA_DISTANCE);
  const row = (axis: Vec3) => [axis[0], axis[1], axis[2], -dot(axis, eye)];
  return {
    camera: {
      modelView: Float64Array.from([...row(right), ...row(up), ...row(back)]),
      fovY: 2 * Math.atan(half / (pixelsPerMetre * CAMERA_DISTANCE)),
      near: CAMERA_DISTANCE - 2,
    },
    viewport: { x: 0, y: 0, width: size, height: size },
  };
}

/** The Head mesh starts with the 468 face landmarks, in model space. */
function faceLandmarks(model: AvatarModel): Vec3[] {
  const head = model.meshes.find((m) => m.name === 'Head');
  if (!head) throw new Error('the avatar has no Head mesh');
  return Array.from({ length: 468 }, (_, i): Vec3 => [
    head.positions[3 * i]!,
    head.positions[3 * i + 1]!,
    head.positions[3 * i + 2]!,
  ]);
}

async function decodePhoto(bytes: Uint8Array): Promise<RgbImage> {
  const { data, info } = await sharp(bytes)
    .resize(SIDE, SIDE, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** IoU of two masks over the rows above `cut` (the chin): the head, not the shoulders. */
function headIou(a: Uint8Array, b: Uint8Array, width: number, cut: number): number {
  let both = 0;
  let either = 0;
  const rows = Math.max(0, Math.min(width, Math.round(cut)));
  for (let i = 0; i < rows * width; i++) {
    if (a[i] && b[i]) both++;
    if (a[i] || b[i]) either++;
  }
  return either === 0 ? 0 : both / either;
}

/**
 * With LIKENESS_DUMP=<folder>, writes per view the photo with both outlines
 * laid over it (red: the person's segmented head, green: the avatar's) and the
 * chin cut, to see what the IoU compares.
 */
async function dumpComparison(
  name: string,
  photo: RgbImage,
  person: Uint8Array,
  avatar: Uint8Array,
  cut: number,
): Promise<void> {
  const folder = process.env.LIKENESS_DUMP;
  if (!folder) return;
  const out = Buffer.from(photo.data);
  const edge = (mask: Uint8Array, i: number) => {
    const x = i % SIDE;
    const y = Math.floor(i / SIDE);
    if (!mask[i]) return false;
    return (
      x === 0 ||
      y === 0 ||
      x === SIDE - 1 ||
      y === SIDE - 1 ||
      !mask[i - 1] ||
      !mask[i + 1] ||
      !mask[i - SIDE] ||
      !mask[i + SIDE]
    );
  };
  for (let i = 0; i < SIDE * SIDE; i++) {
    const row = Math.floor(i / SIDE);
    if (row === Math.round(cut)) out.set([0, 0, 255], 3 * i);
    if (edge(person, i)) out.set([255, 0, 0], 3 * i);
    if (edge(avatar, i)) out.set([0, 200, 0], 3 * i);
    else if (avatar[i] && !person[i]) out.set([255, 255, 0], 3 * i);
  }
  await sharp(out, { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .png()
    .toFile(path.join(folder, `${name}.png`));
}

/** With LIKENESS_DUMP=<folder>, writes the photo and the avatar's render side by side. */
async function dumpRender(name: string, photo: RgbImage, render: Buffer): Promise<void> {
  const folder = process.env.LIKENESS_DUMP;
  if (!folder) return;
  const out = Buffer.alloc(SIDE * 2 * SIDE * 3);
  for (let y = 0; y < SIDE; y++) {
    photo.data.copy(out, y * SIDE * 6, y * SIDE * 3, (y + 1) * SIDE * 3);
    render.copy(out, y * SIDE * 6 + SIDE * 3, y * SIDE * 3, (y + 1) * SIDE * 3);
  }
  await sharp(out, { raw: { width: 2 * SIDE, height: SIDE, channels: 3 } })
    .png()
    .toFile(path.join(folder, `${name}-render.png`));
}

export const likenessSuite: Suite = async () => {
  if (process.env.LIKENESS_DUMP) mkdirSync(process.env.LIKENESS_DUMP, { recursive: true });
  process.stderr.write('likeness: loading Human with faceres\n');
  const { human, tf } = await loadHuman({ describe: true });
  const describe = async (img: RgbImage): Promise<Embedding | null> => {
    const input = tf.tensor4d(img.data, [1, img.height, img.width, 3], 'int32');
    try {
      const result = await human.detect(input);
      const embedding = result.face[0]?.embedding;
      return embedding && embedding.length > 0 ? [...embedding] : null;
    } finally {
      tf.dispose(input);
    }
  };

  const results = new Map<string, ViewResult[]>();
  for (const person of PEOPLE) {
    process.stderr.write(`likeness: ${person}\n`);
    const analysis = analysisOf(person);
    const bodyType = analysis.body_type === 'female' ? 'female' : 'male';
    const model = await buildAvatar(
      await inputFor(person, customizationForBodyType(bodyType, analysis.hair ?? null)),
    );
    const landmarks = faceLandmarks(model);
    const centre = scale(
      landmarks.reduce<Vec3>((s, p) => [s[0] + p[0], s[1] + p[1], s[2] + p[2]], [0, 0, 0]),
      1 / landmarks.length,
    );
    const photos = photosOf(person);
    const rows: ViewResult[] = [];
    let pixelsPerMetrePerPixel = 0;
    let frontalElevation = 0;
    for (const [, field, key] of VIEWS) {
      const stored = analysis.photos[field];
      const face = stored.faces[0];
      if (!face) throw new Error(`${person} ${field}: no face in the stored analysis`);
      const toSide = SIDE / stored.width;
      const pixels = face.mesh.map((p) => [p[0] * toSide, p[1] * toSide]);
      const photo = await decodePhoto(photos[key]);
      const segmented = subjectMask(photo);
      if (!segmented) throw new Error(`${person} ${field}: the backdrop is not plain`);
      // As the builder does (matchSeriesScale): one camera took the series, so the head spans
      // the same crown-to-chin height in every photo; the frontal camera sets the scale. And as
      // it does (levelledViews), the series is shot level: a turned camera is levelled to the
      // frontal one's pitch, which its landmarks leave 5–9° off (the fixtures are turned by yaw
      // alone; through the unlevelled camera the crown and back of the head show misplaced).
      let camera = fitRigidCamera(landmarks, pixels);
      const xs = pixels.map((p) => p[0]!);
      const faceWidth = Math.max(...xs) - Math.min(...xs);
      const top = maskTop(
        segmented.mask,
        SIDE,
        SIDE,
        Math.min(...xs) - faceWidth,
        Math.max(...xs) + faceWidth,
      );
      if (top === null) throw new Error(`${person} ${field}: no head in the photo`);
      const height = pixels[152]![1]! - top;
      if (key === 'frontal') {
        pixelsPerMetrePerPixel = cameraScale(camera) / height;
        frontalElevation = towardCamera(camera)[1];
      } else {
        camera = rescaled(camera, (pixelsPerMetrePerPixel * height) / cameraScale(camera), centre);
        camera = levelled(camera, frontalElevation, centre);
      }
      const view = viewFromAffine(camera, centre, SIDE);
      const { picture, mask: avatarMask } = renderOnBackdrop(model, view, segmented.backdrop);
      const chinRow = pixels[152]![1]!;
      await dumpComparison(`${person}-${key}`, photo, segmented.mask, avatarMask, chinRow);
      await dumpRender(`${person}-${key}`, photo, picture);
      const avatar = await describe({ data: picture, width: SIDE, height: SIDE });
      // The photo's landmarks are in pixels, y down; closedEyes reads them y up.
      const [rightShut, leftShut] = closedEyes(face.mesh.map((p): Vec3 => [p[0]!, -p[1]!, 0]));
      let avatarEyesAsPhoto = avatar;
      if (rightShut || leftShut) {
        const shut = withShapes(model, {
          eyeBlinkRight: rightShut ? 1 : 0,
          eyeBlinkLeft: leftShut ? 1 : 0,
        });
        const { picture: shutPicture } = renderOnBackdrop(shut, view, segmented.backdrop);
        await dumpRender(`${person}-${key}-eyes-as-photo`, photo, shutPicture);
        avatarEyesAsPhoto = await describe({ data: shutPicture, width: SIDE, height: SIDE });
      }
      rows.push({
        iou: headIou(segmented.mask, avatarMask, SIDE, chinRow),
        photo: await describe(photo),
        avatar,
        avatarEyesAsPhoto,
      });
    }
    results.set(person, rows);
  }

  const lines: string[] = [`silhouette IoU above the chin (goal ≥ ${IOU_GOAL} in every view)`];
  lines.push(`${'person'.padEnd(10)}${VIEWS.map(([name]) => name.padStart(9)).join('')}`);
  const summary: Record<string, unknown> = {};
  for (const [person, rows] of results) {
    lines.push(`${person.padEnd(10)}${rows.map((r) => r.iou.toFixed(3).padStart(9)).join('')}`);
    summary[person] = { iou: rows.map((r) => Number(r.iou.toFixed(3))) };
  }
  const matrices = (
    avatarOf: (r: ViewResult) => Embedding | null,
    title: string,
    field: string,
  ): number => {
    let ownBest = 0;
    VIEWS.forEach(([name], v) => {
      lines.push('', `${title}, ${name}: rows photo, columns avatar (* = row's best)`);
      lines.push(`${''.padEnd(10)}${PEOPLE.map((p) => p.padStart(10)).join('')}`);
      for (const photoPerson of PEOPLE) {
        const photo = results.get(photoPerson)![v]!.photo;
        const sims = PEOPLE.map((avatarPerson) => {
          const avatar = avatarOf(results.get(avatarPerson)![v]!);
          return photo && avatar ? similarity(photo, avatar) : Number.NaN;
        });
        const best = sims.indexOf(Math.max(...sims.filter((s) => !Number.isNaN(s))));
        if (PEOPLE[best] === photoPerson) ownBest++;
        lines.push(
          `${photoPerson.padEnd(10)}${sims
            .map((s, i) =>
              Number.isNaN(s) ? 'no face' : `${s.toFixed(4)}${i === best ? '*' : ' '}`,
            )
            .map((s) => s.padStart(10))
            .join('')}`,
        );
        (summary[photoPerson] as Record<string, unknown>)[`${field}_${name.replace(' ', '')}`] =
          sims.map((s) => Number(s.toFixed(4)));
      }
    });
    return ownBest;
  };
  const cases = VIEWS.length * PEOPLE.length;
  const ownBest = matrices((r) => r.avatar, 'faceres similarity', 'similarity');
  lines.push('', `own avatar most similar: ${ownBest} of ${cases} (goal: all)`);
  const ownBestEyesAsPhoto = matrices(
    (r) => r.avatarEyesAsPhoto,
    "diagnostic: faceres similarity with the avatar's eyes shut where the photo's are",
    'similarity_eyes_as_photo',
  );
  lines.push(
    '',
    `diagnostic: own avatar most similar with the eyes as in the photo: ${ownBestEyesAsPhoto} of ${cases}`,
  );
  const ious = [...results.values()].flatMap((rows) => rows.map((r) => r.iou));
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(
    JSON.stringify({
      suite: 'likeness',
      ...summary,
      min_iou: Number(Math.min(...ious).toFixed(3)),
      own_best: ownBest,
      own_best_eyes_as_photo: ownBestEyesAsPhoto,
      cases,
      target_met: ious.every((i) => i >= IOU_GOAL) && ownBest === cases,
    }) + '\n',
  );
  for (const model of Object.values(human.models.models)) model?.dispose();
};
