import sharp from 'sharp';
import type { AvatarModel } from '../service/avatar-model/model.js';
import { lookAt } from '../service/render/affine.js';
import type { View } from '../service/render/camera.js';
import { renderViews } from '../service/render/render-views.js';

/** The head from the front, its left, the back and its right, as a turntable shows it. */
const TURNS = [0, 90, 180, 270] as const;
const PANEL = 384;
const FOV = (24 * Math.PI) / 180;

/**
 * One contact sheet: the person's three photos on top, the avatar's head
 * from four sides below, for judging the likeness by eye.
 */
export async function headSheet(
  model: AvatarModel,
  photos: readonly Uint8Array[],
  background: [number, number, number] = [236, 237, 240],
): Promise<Buffer> {
  const head = model.meshes.filter((m) => m.name === 'Head')[0];
  if (!head) throw new Error('the avatar has no Head mesh');
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < head.positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, head.positions[i]!);
    max[i % 3] = Math.max(max[i % 3]!, head.positions[i]!);
  }
  const centre: [number, number, number] = [
    (min[0]! + max[0]!) / 2,
    (min[1]! + max[1]!) / 2 - 0.02,
    (min[2]! + max[2]!) / 2,
  ];
  const reach = (0.5 * (max[1]! - min[1]!) + 0.06) / Math.tan(FOV / 2);
  const views: View[] = TURNS.map((turn, i) => {
    const a = (turn * Math.PI) / 180;
    const eye: [number, number, number] = [
      centre[0] + reach * Math.sin(a),
      centre[1],
      centre[2] + reach * Math.cos(a),
    ];
    return {
      camera: { modelView: lookAt(eye, centre), fovY: FOV, near: 0.05 },
      viewport: { x: i * PANEL, y: 0, width: PANEL, height: PANEL },
    };
  });
  const width = PANEL * TURNS.length;
  const rgba = renderViews(model, views, width, PANEL);
  const renders = await sharp(Buffer.from(rgba), { raw: { width, height: PANEL, channels: 4 } })
    .flatten({ background: { r: background[0], g: background[1], b: background[2] } })
    .png()
    .toBuffer();
  const photoSide = Math.floor(width / photos.length);
  const thumbs = await Promise.all(
    photos.map((p) =>
      sharp(p).resize(photoSide, PANEL, { fit: 'contain', background: '#ffffff' }).png().toBuffer(),
    ),
  );
  return sharp({
    create: { width, height: 2 * PANEL, channels: 3, background: { r: 255, g: 255, b: 255 } },
  })
    .composite([
      ...thumbs.map((input, i) => ({ input, left: i * photoSide, top: 0 })),
      { input: renders, left: 0, top: PANEL },
    ])
    .png()
    .toBuffer();
}
