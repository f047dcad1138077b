import sharp from 'sharp';
import type { FaceResult } from '@vladmandic/human';
import { sniffImageType, type SniffedImageType } from '../../shared/media/image-types.js';
import { DETECT_MAX_SIDE, loadHuman } from './human-loader.js';
import {
  MESH_CHIN,
  MESH_FOREHEAD_TOP,
  meshRegion,
  medianColor,
  samplePatches,
  sampleHair,
  sampleLuminance,
  toneStats,
  type RgbImage,
} from './pixel-stats.js';
import { THRESHOLDS } from './photo-checks.js';
import { observeHair } from './hair-analysis.js';
import type {
  FaceAnalysis,
  FaceTopology,
  PhotoAnalysis,
  PhotoAnalyzer,
  Vec3,
} from './photo-types.js';

/**
 * Analyses one photo: decodes it with sharp, finds faces and their pose
 * with human (twice: the second time framed about the face, LOOK_SPAN), and
 * measures exposure, sharpness and colours.
 */

/** Sharpness is measured at a fixed size so that it does not depend on the camera resolution. */
const SHARPNESS_SIDE = 512;
/** Face sharpness is measured at up to this size; never enlarged, which would fake blur on small faces. */
const FACE_SHARPNESS_SIDE = 256;

// Mesh indices (MediaPipe face-mesh topology) that lie on flat skin: forehead and both cheeks,
// away from eyebrows, eyes, lips and the hairline.
const SKIN_POINTS = [
  151, 9, 108, 337, 107, 336, 50, 101, 118, 117, 205, 123, 280, 330, 347, 346, 425, 352,
];

const RAD_TO_DEG = 180 / Math.PI;
const round = (v: number, digits = 2): number => Number(v.toFixed(digits));

async function toFaceAnalysis(
  face: FaceResult,
  img: RgbImage,
  scale: number,
): Promise<FaceAnalysis> {
  // `face.box` is clamped; `boxRaw` is not, and its width is the crop the mesh model saw, which
  // converts the model's depth units (crop / meshInput) to pixels.
  const cropWidthPx = (face.boxRaw[2] ?? 0) * img.width;
  const meshRaw: Vec3[] = face.meshRaw.map((p) => [p[0], p[1], p[2] ?? 0]);
  const mesh: Vec3[] = face.meshRaw.map((p) => [
    round(p[0] * img.width * scale),
    round(p[1] * img.height * scale),
    round((p[2] ?? 0) * cropWidthPx * scale),
  ]);
  // Work in detection-image pixels for sampling, report in original pixels.
  const detMesh: Vec3[] = face.mesh.map((p) => [p[0], p[1], p[2] ?? 0]);
  const top = detMesh[MESH_FOREHEAD_TOP];
  const chin = detMesh[MESH_CHIN];
  const faceHeightDet = top && chin ? Math.hypot(top[0] - chin[0], top[1] - chin[1]) : 0;
  const [bx, by, bw, bh] = face.box;
  const angle = face.rotation?.angle ?? { yaw: Number.NaN, pitch: Number.NaN, roll: Number.NaN };
  const skinCentres = SKIN_POINTS.map((i) => detMesh[i])
    .filter((p): p is Vec3 => p !== undefined)
    .map((p): [number, number] => [p[0], p[1]]);
  const skin = samplePatches(img, skinCentres, Math.max(1, Math.round(faceHeightDet * 0.012)));
  const skinColor = medianColor(skin);
  const region = meshRegion(detMesh, img);
  const faceSharpness = region
    ? (await toneStats(img, FACE_SHARPNESS_SIDE, region, false)).sharpness
    : 0;
  return {
    score: round(face.score, 3),
    box: [
      Math.round(bx * scale),
      Math.round(by * scale),
      Math.round(bw * scale),
      Math.round(bh * scale),
    ],
    yaw: round(angle.yaw * RAD_TO_DEG, 1),
    pitch: round(angle.pitch * RAD_TO_DEG, 1),
    roll: round(angle.roll * RAD_TO_DEG, 1),
    faceHeight: round(faceHeightDet * scale, 1),
    faceLuminance: round(sampleLuminance(skin), 1),
    sharpness: round(faceSharpness, 1),
    mesh,
    meshRaw,
    skinColor,
    hairColor: sampleHair(img, detMesh, faceHeightDet),
    hair: observeHair(img, detMesh, skinColor),
  };
}

/**
 * The second look: a square about the face this many face-box sides wide,
 * scaled to LOOK_SIDE. Human's landmarks move with how the photo frames the
 * face (the same photos cropped to 4:3 or 3:4 moved them 2.6–15 px on average
 * and the back of the skull built from them by 3.8 cm); seen again framed
 * alike whatever the photo, they moved 1.0–2.8 px and the skull 1.1 cm.
 */
const LOOK_SPAN = 2.2;
const LOOK_SIDE = 512;
/** A face box so small that no square about it is worth a look (px). */
const MIN_LOOK_SIDE = 16;

/** A face counted in a photo: confident enough, with the whole mesh. */
const usable = (f: FaceResult) => f.score >= THRESHOLDS.minFaceScore && f.mesh.length >= 468;

interface Look {
  /** The square's corner and side in detection-image pixels. */
  left: number;
  top: number;
  side: number;
}

/** The square about a face for its second look; it may reach past the image (edges copied). */
function lookAround(face: FaceResult): Look {
  const [x, y, w, h] = face.box;
  const side = Math.round(LOOK_SPAN * Math.max(w, h));
  return {
    left: Math.round(x + w / 2 - side / 2),
    top: Math.round(y + h / 2 - side / 2),
    side,
  };
}

/** The look's pixels: the square cut from the image (edges copied past it), scaled to LOOK_SIDE. */
async function lookPixels(img: RgbImage, look: Look): Promise<Buffer> {
  const pad = {
    left: Math.max(0, -look.left),
    top: Math.max(0, -look.top),
    right: Math.max(0, look.left + look.side - img.width),
    bottom: Math.max(0, look.top + look.side - img.height),
  };
  // sharp extends after it extracts within one pipeline: a square past the edge is padded first.
  const padded = Object.values(pad).some((p) => p > 0)
    ? await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
        .extend({ ...pad, extendWith: 'copy' })
        .raw()
        .toBuffer()
    : img.data;
  return sharp(padded, {
    raw: {
      width: img.width + pad.left + pad.right,
      height: img.height + pad.top + pad.bottom,
      channels: 3,
    },
  })
    .extract({
      left: look.left + pad.left,
      top: look.top + pad.top,
      width: look.side,
      height: look.side,
    })
    .resize(LOOK_SIDE, LOOK_SIDE)
    .raw()
    .toBuffer();
}

/** A face found in a look, its coordinates put back into the detection image's. */
function fromLook(face: FaceResult, look: Look, img: RgbImage): FaceResult {
  const k = look.side / LOOK_SIDE;
  const px = (p: readonly (number | undefined)[]) => [
    look.left + p[0]! * k,
    look.top + p[1]! * k,
    (p[2] ?? 0) * k,
  ];
  const raw = (p: readonly (number | undefined)[]) => [
    (look.left + p[0]! * look.side) / img.width,
    (look.top + p[1]! * look.side) / img.height,
    p[2] ?? 0,
  ];
  const [bx, by, bw, bh] = face.box;
  const [rx, ry, rw, rh] = face.boxRaw;
  return {
    ...face,
    box: [look.left + bx * k, look.top + by * k, bw * k, bh * k],
    boxRaw: [
      (look.left + rx * look.side) / img.width,
      (look.top + ry * look.side) / img.height,
      (rw * look.side) / img.width,
      (rh * look.side) / img.height,
    ],
    mesh: face.mesh.map((p) => px(p) as typeof p),
    meshRaw: face.meshRaw.map((p) => raw(p) as typeof p),
  };
}

// ---------------------------------------------------------------------------
// Analyzer
// ---------------------------------------------------------------------------

const DECODABLE: ReadonlySet<SniffedImageType> = new Set<SniffedImageType>([
  'jpeg',
  'png',
  'webp',
  'gif',
]);

interface Decoded {
  img: RgbImage;
  width: number;
  height: number;
}

async function decode(buf: Uint8Array): Promise<Decoded> {
  // failOn 'error' rejects truncated or corrupt data ('none' would pad it with grey) but,
  // unlike sharp's default 'warning', accepts camera files that only raise warnings (such as
  // extraneous bytes before a marker). Set explicitly so a changed default cannot loosen it.
  const options = {
    failOn: 'error',
    // Refuses decompression bombs before libvips allocates anything.
    limitInputPixels: THRESHOLDS.maxPixels,
    autoOrient: true,
  } as const;
  const meta = await sharp(buf, options).metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  const { data, info } = await sharp(buf, options)
    .resize({
      width: DETECT_MAX_SIDE,
      height: DETECT_MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    })
    // Flatten alpha onto white so transparent PNG areas do not become black "darkness".
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`unexpected channel count ${info.channels}`);
  return { img: { data, width: info.width, height: info.height }, width, height };
}

function emptyAnalysis(type: SniffedImageType, decodeError: string | null): PhotoAnalysis {
  return {
    type,
    width: 0,
    height: 0,
    decodeError,
    luminance: 0,
    sharpness: 0,
    faceCount: 0,
    faces: [],
    timings: { decodeMs: 0, detectMs: 0, totalMs: 0 },
  };
}

export async function createPhotoAnalyzer(): Promise<PhotoAnalyzer> {
  const { human, tf } = await loadHuman();

  // human keeps per-instance state, so concurrent detect() calls would interleave; serialise.
  let queue: Promise<unknown> = Promise.resolve();
  let disposed = false;

  async function detect(data: Uint8Array, width: number, height: number): Promise<FaceResult[]> {
    const input = tf.tensor4d(data, [1, height, width, 3], 'int32');
    try {
      const result = await human.detect(input);
      if (result.error) throw new Error(`face detection failed: ${result.error}`);
      return result.face;
    } finally {
      tf.dispose(input);
    }
  }

  /** The face as a second look framed about it sees it; as first seen when that finds none. */
  async function lookAgain(face: FaceResult, img: RgbImage): Promise<FaceResult> {
    const look = lookAround(face);
    if (look.side < MIN_LOOK_SIDE) return face;
    const seen = await detect(await lookPixels(img, look), LOOK_SIDE, LOOK_SIDE);
    const centre = (f: FaceResult) => [f.box[0] + f.box[2] / 2, f.box[1] + f.box[3] / 2];
    // The look's own face is the one at its centre.
    const middle = seen
      .filter(usable)
      .map((f) => ({ f, off: Math.hypot(...centre(f).map((c) => c - LOOK_SIDE / 2)) }))
      .sort((a, b) => a.off - b.off)[0];
    return middle ? fromLook(middle.f, look, img) : face;
  }

  async function analyzeNow(buf: Uint8Array): Promise<PhotoAnalysis> {
    const t0 = performance.now();
    const type = sniffImageType(buf);
    if (!DECODABLE.has(type)) return emptyAnalysis(type, 'not a supported image file');
    // The header alone tells an oversized image, which then gets its own reason instead of
    // sharp's refusal, a generic decode failure.
    const header = await sharp(buf, { limitInputPixels: false })
      .metadata()
      .catch(() => undefined);
    if (header?.width && header.height && header.width * header.height > THRESHOLDS.maxPixels) {
      return {
        ...emptyAnalysis(type, `larger than ${THRESHOLDS.maxPixels} pixels`),
        width: header.width,
        height: header.height,
      };
    }
    let decoded: Decoded;
    try {
      decoded = await decode(buf);
    } catch (err) {
      const a = emptyAnalysis(type, err instanceof Error ? err.message : String(err));
      a.timings.totalMs = round(performance.now() - t0, 1);
      return a;
    }
    const t1 = performance.now();
    const { img } = decoded;
    const scale = decoded.width / img.width;
    // libvips downscales on its own thread pool while the wasm detector runs on this thread.
    const globalStats = toneStats(img, SHARPNESS_SIDE);
    globalStats.catch(() => undefined);
    const faces = await detect(img.data, img.width, img.height);
    const counted: FaceResult[] = [];
    for (const face of faces.filter(usable)) counted.push(await lookAgain(face, img));
    const t2 = performance.now();
    const stats = await globalStats;
    const out: PhotoAnalysis = {
      type,
      width: decoded.width,
      height: decoded.height,
      decodeError: null,
      luminance: round(stats.luminance, 1),
      sharpness: round(stats.sharpness, 1),
      faceCount: counted.length,
      faces: await Promise.all(counted.map((f) => toFaceAnalysis(f, img, scale))),
      timings: { decodeMs: round(t1 - t0, 1), detectMs: round(t2 - t1, 1), totalMs: 0 },
    };
    out.timings.totalMs = round(performance.now() - t0, 1);
    return out;
  }

  return {
    analyze(buf: Uint8Array): Promise<PhotoAnalysis> {
      if (disposed) return Promise.reject(new Error('photo analyzer has been disposed'));
      const run = queue.then(() => analyzeNow(buf));
      queue = run.catch(() => undefined);
      return run;
    },
    faceTopology(): FaceTopology {
      return {
        triangles: [...human.faceTriangulation],
        uvs: human.faceUVMap.map(([u, v]) => [u, v]),
      };
    },
    dispose(): void {
      disposed = true;
      for (const model of Object.values(human.models.models)) model?.dispose();
    },
  };
}
