/**
 * Writes renders and exports of the fixture people to a folder, so a person
 * can look at them: `npm run gallery -- [--out DIR]`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startService } from '../service/service.js';
import { createLogger } from '../service/log.js';
import { BUILTIN_ASSETS } from '../service/assets/builtin-catalogue.js';
import { buildAvatar } from '../service/avatar-model/builder/build-avatar.js';
import type { FaceTopology } from '../service/processing/photo-types.js';
import type { StoredAnalysis } from '../service/processing/processing-repo.js';
import { StoredCustomization } from '../shared/api/index.js';
import { SCENES } from '../service/render/scenes.js';
import { headSheet } from './head-sheet.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const USAGE = `Usage: npm run gallery -- [--out DIR]
Builds the three fixture people through a local service and writes their head sheets, GLBs
and renders (every scene for the plain look) to DIR (default: gallery-output/ in the repository).`;
const Args = z.object({ out: z.string().min(1).default(path.join(ROOT, 'gallery-output')) });

function parseGalleryArguments(argv: string[]): z.infer<typeof Args> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { out: { type: 'string' }, help: { type: 'boolean' } },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    return Args.parse({ out: values.out });
  } catch (error) {
    const reason =
      error instanceof z.ZodError
        ? z.prettifyError(error)
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`gallery: ${reason}\n${USAGE}\n`);
    process.exit(2);
  }
}
const args = parseGalleryArguments(process.argv.slice(2));

const OWN_SCENES = ['common/preview', 'common/fullbody', 'common/turnaround'];
const asset = (style: string) => BUILTIN_ASSETS.find((a) => a.style === style)!.id;
const LOOKS: Record<string, unknown> = {
  default: null,
  'cap-glasses-hoodie': {
    assets: {
      clothing: { id: asset('hoodie') },
      hair_and_headwear: { id: asset('cap'), color: '#1c3a8a' },
      eyewear: { id: asset('aviator'), color: '#20202099' },
      footwear: { id: asset('boots') },
    },
    body: 'body_3',
    bone_scale: { head: 0.2, arms: 0, chest: 0.3 },
    eye_texture: 'blue',
  },
  'child-long-hair': {
    assets: {
      clothing: { id: asset('tshirt') },
      hair_and_headwear: { id: asset('long'), color: '#d4a373' },
      footwear: { id: asset('sneakers') },
    },
    body: 'body_1',
    age: '7-12',
    skin_tone_correction: 0.4,
    eye_texture: 'green',
  },
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'avatar-gallery-'));
const service = await startService({
  dataDir,
  port: 0,
  log: createLogger('warn'),
  processingWorkers: 1,
  avatarWorkers: 1,
});
const auth = {
  authorization: `Bearer ${service.defaultProject.token}`,
  'content-type': 'application/json',
};
const call = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(service.baseUrl + p, {
    method,
    headers: auth,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
};
const until = async <T>(probe: () => Promise<T | undefined>): Promise<T> => {
  for (let i = 0; i < 1200; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
};

/**
 * The head from four sides under the person's photos, as processing left
 * it (bald people without hair) and with hair (short, in the seen colour or
 * the asset's default): `<person>-head-<look>.png`.
 */
async function writeHeadSheets(person: string, id: string): Promise<void> {
  const db = service.context.db;
  const row = (sql: string, ...params: string[]) =>
    db.prepare<string[], Record<string, string>>(sql).get(...params);
  const analysis = JSON.parse(
    row('SELECT data FROM avatar_analysis WHERE avatar_id = ?', id)!.data!,
  ) as StoredAnalysis;
  const topology = JSON.parse(
    row(`SELECT value FROM service_meta WHERE key = 'face_topology'`)!.value!,
  ) as FaceTopology;
  const processed = StoredCustomization.parse(
    JSON.parse(row('SELECT customization FROM avatars WHERE id = ?', id)!.customization!),
  );
  const read = (name: string) =>
    new Uint8Array(readFileSync(path.join(ROOT, 'e2e/fixtures/photos', person, `${name}.jpg`)));
  const photos = { frontal: read('frontal'), side1: read('side-1'), side2: read('side-2') };
  const withHair = structuredClone(processed);
  withHair.assets.hair_and_headwear ??= { id: asset('short'), color: null };
  const withoutHair = structuredClone(processed);
  withoutHair.assets.hair_and_headwear = null;
  for (const [look, customization] of [
    ['without-hair', withoutHair],
    ['with-hair', withHair],
  ] as const) {
    const model = await buildAvatar({
      analysis,
      topology,
      photos,
      customization,
      catalogue: BUILTIN_ASSETS,
    });
    const name = `${person}-head-${look}.png`;
    writeFileSync(
      path.join(args.out, name),
      await headSheet(model, [photos.side1, photos.frontal, photos.side2]),
    );
    process.stderr.write(`wrote ${name} (hair seen: ${analysis.hair?.style ?? 'unknown'})\n`);
  }
}

try {
  mkdirSync(args.out, { recursive: true });
  for (const person of ['person-a', 'person-b', 'person-c']) {
    const user = (await call('POST', '/api/v1/users/new')).id as string;
    const avatar = await call('POST', '/api/v1/avatars/new', { user_id: user });
    const form = new FormData();
    for (const [field, file] of [
      ['image-frontal', 'frontal'],
      ['image-side-1', 'side-1'],
      ['image-side-2', 'side-2'],
    ]) {
      form.append(
        field!,
        new Blob([readFileSync(path.join(ROOT, 'e2e/fixtures/photos', person, `${file}.jpg`))]),
        `${file}.jpg`,
      );
    }
    form.append('body-type', person === 'person-b' ? 'female' : 'male');
    await fetch(avatar.upload_url as string, { method: 'POST', body: form });
    const id = avatar.avatar_id as string;
    const status = await until(async () => {
      const s = (await call('GET', `/local/v1/avatars/${id}`)).status as string;
      return s === 'ready' || s === 'failed' ? s : undefined;
    });
    if (status !== 'ready') throw new Error(`${person} did not become ready`);
    await writeHeadSheets(person, id);
    for (const [look, customization] of Object.entries(LOOKS)) {
      if (customization) await call('PUT', `/api/v1/avatars/${id}/customization`, customization);
      const exportUrl = await until(async () => {
        const r = await call('POST', `/api/v1/exports/new?avatar_id=${id}`);
        return r.status === 'ready' ? (r.url as string) : undefined;
      });
      writeFileSync(
        path.join(args.out, `${person}-${look}.glb`),
        new Uint8Array(await (await fetch(exportUrl)).arrayBuffer()),
      );
      // The plain look in every scene (each format for ours), the dressed ones in ours.
      const scenes = look === 'default' ? SCENES.map((s) => s.name) : OWN_SCENES;
      for (const scene of scenes) {
        const formats =
          look === 'default' && OWN_SCENES.includes(scene) ? ['jpg', 'png', 'webp'] : ['png'];
        for (const format of formats) {
          const task = await call(
            'POST',
            `/api/v1/renders/new?avatar_id=${id}&scene=${scene}&format=${format}`,
          );
          const file = await until(async () => {
            const row = service.context.renderTasks.get(task.id as string);
            return row && row.status !== 'pending' ? row : undefined;
          });
          if (file.status !== 'ready' || !file.file_path)
            throw new Error(`render ${scene} ${format} failed`);
          const name = `${person}-${look}-${scene.replace('/', '-')}.${format}`;
          writeFileSync(
            path.join(args.out, name),
            readFileSync(path.join(dataDir, file.file_path)),
          );
          process.stderr.write(`wrote ${name}\n`);
        }
      }
    }
  }
  process.stdout.write(`${args.out}\n`);
} finally {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}
