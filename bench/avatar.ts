import type { Suite } from './suite.js';
import { buildAvatar } from '../service/avatar-model/builder/build-avatar.js';
import {
  analysisOf,
  inputFor,
  PEOPLE,
  sharperInput,
} from '../service/avatar-model/builder/test-support.js';
import { writeGlb } from '../service/avatar-model/builder/write-glb.js';
import { startHeadTextureHelper } from '../service/avatar-model/builder/head-texture-parallel.js';
import { renderAvatar, SCENES } from '../service/render/index.js';
import { customizationForBodyType } from '../service/customization/defaults.js';

const RUNS = 7;
/** Issue 16's budgets: build with export, each 1024² render, triangles with the head, GLB size. */
const EXPORT_TARGET_MS = 1000;
const RENDER_TARGET_MS = 800;
const MAX_TRIANGLES = 70_000;
/** The 8 MB, read as decimal megabytes: the stricter reading. */
const MAX_GLB_BYTES = 8_000_000;
/** The fixture photos upscaled this much take the largest head atlas (head-atlas.test.ts). */
const SHARPER = 2.5;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function time<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

/**
 * The avatar suite: export build time (model + GLB), GLB size, and render
 * time per scene and format at 1024², in this process, on the fixtures.
 */
export const avatarSuite: Suite = async () => {
  const rows: { what: string; ms: number; target: number; extra: string; ok?: boolean }[] = [];
  const summary: Record<string, unknown> = {};
  // As the avatar worker does while it warms up (task-worker.ts), so the builds have it.
  const helper = await startHeadTextureHelper();
  summary.head_texture_helper = helper;
  for (const person of PEOPLE) {
    const bodyType = analysisOf(person).body_type === 'female' ? 'female' : 'male';
    const input = await inputFor(person, customizationForBodyType(bodyType));
    const builds: number[] = [];
    const writes: number[] = [];
    let glbBytes = 0;
    let triangles = 0;
    let model = await buildAvatar(input);
    for (let i = 0; i < RUNS; i++) {
      const built = await time(() => buildAvatar(input));
      const written = await time(() => writeGlb(built.value));
      builds.push(built.ms);
      writes.push(written.ms);
      glbBytes = written.value.byteLength;
      model = built.value;
      triangles = built.value.meshes.reduce((n, m) => n + m.indices.length / 3, 0);
    }
    const exportMs = median(builds.map((b, i) => b + writes[i]!));
    rows.push({
      what: `${person} export (build + GLB)`,
      ms: exportMs,
      target: EXPORT_TARGET_MS,
      extra: `${(glbBytes / 1e6).toFixed(2)} MB, ${triangles} triangles`,
      ok: triangles <= MAX_TRIANGLES && glbBytes <= MAX_GLB_BYTES,
    });
    summary[person] = {
      export_ms: Math.round(exportMs),
      build_ms: Math.round(median(builds)),
      glb_ms: Math.round(median(writes)),
      glb_bytes: glbBytes,
      triangles,
    };
    if (person !== 'person-a') continue;
    for (const scene of SCENES.map((s) => s.name)) {
      for (const format of ['jpg', 'png', 'webp'] as const) {
        await renderAvatar(model, { scene, format });
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++)
          times.push((await time(() => renderAvatar(model, { scene, format }))).ms);
        rows.push({
          what: `render ${scene} ${format} 1024²`,
          ms: median(times),
          target: RENDER_TARGET_MS,
          extra: '',
        });
        summary[`render ${scene} ${format}`] = Math.round(median(times));
      }
    }
  }
  // Not one of the budget's rows: the fixture photos take the 1024² head atlas, and this shows
  // what photos sharp enough for the 2048² one cost.
  {
    const input = await sharperInput('person-a', SHARPER, customizationForBodyType('male'));
    await buildAvatar(input);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      times.push((await time(async () => writeGlb(await buildAvatar(input)))).ms);
    }
    const ms = median(times);
    rows.push({
      what: `person-a photos ×${SHARPER} (2048² head atlas), not budgeted`,
      ms,
      target: Infinity,
      extra: `${ms > EXPORT_TARGET_MS ? 'over' : 'within'} the ${EXPORT_TARGET_MS} ms export target`,
    });
    summary['person-a sharper'] = { export_ms: Math.round(ms), factor: SHARPER };
  }
  const within = (r: (typeof rows)[number]) => r.ms <= r.target && r.ok !== false;
  const table = rows.map(
    (r) =>
      `${r.what.padEnd(56)} ${r.ms.toFixed(0).padStart(6)} ms  ${r.target === Infinity ? 'info' : within(r) ? 'ok' : 'OVER'}  ${r.extra}`,
  );
  process.stdout.write(
    `avatar suite: median of ${RUNS} runs; targets: export ${EXPORT_TARGET_MS} ms, render ${RENDER_TARGET_MS} ms, ` +
      `${MAX_TRIANGLES} triangles, ${MAX_GLB_BYTES / 1e6} MB\n${table.join('\n')}\n`,
  );
  const met = rows.every(within);
  process.stdout.write(
    JSON.stringify({
      suite: 'avatar',
      ...summary,
      export_target_ms: EXPORT_TARGET_MS,
      render_target_ms: RENDER_TARGET_MS,
      target_met: met,
    }) + '\n',
  );
};
