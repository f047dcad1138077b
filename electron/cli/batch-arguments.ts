import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { BodyType, RenderFormat } from '../../shared/api/index.js';
import { ApiTarget, type RenderSpec } from '../../shared/studio/index.js';

export const USAGE = `Usage:
  npm run batch -- <folder|manifest.csv> --out <dir> [--body-type male|female] [--concurrency N]
      [--export] [--render SCENE:FORMAT]... [--api embedded|<base_url>] [--data-dir DIR]
      [--dry-run] [--retry-failed]
A folder holds one sub-folder per person with frontal, side-1 and side-2 photos (jpg, jpeg,
png or webp) and an optional person.json; a CSV manifest has the columns
person,frontal,side_1,side_2,body_type,telephoto,name with paths relative to the CSV.
Running the same command again resumes the batch; --retry-failed sends failed people again.
Exit codes: 0 all succeeded, 3 some failed or were invalid, 2 usage error, 1 unexpected error.`;

/** A usage error: exit code 2, with the message and the usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const RenderArgument = z
  .string()
  .regex(/^[^:]+:[^:]+$/, 'must be SCENE:FORMAT, such as studio:png')
  .transform((value, ctx): RenderSpec => {
    const [scene, format] = value.split(':') as [string, string];
    const parsed = RenderFormat.safeParse(format.toLowerCase());
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: `format ${format} is not one of jpg, png, webp` });
      return z.NEVER;
    }
    return { scene, format: parsed.data };
  });

const ApiArgument = z.string().transform((value, ctx): ApiTarget => {
  if (value === 'embedded') return { mode: 'embedded' };
  const hosted = ApiTarget.safeParse({ mode: 'hosted', baseUrl: value });
  if (!hosted.success) {
    ctx.addIssue({ code: 'custom', message: 'must be embedded or an http(s) base URL' });
    return z.NEVER;
  }
  return hosted.data;
});

export const BatchArguments = z.object({
  input: z.string().min(1, 'the input folder or manifest is missing'),
  out: z.string().min(1, '--out <dir> is required'),
  bodyType: BodyType.nullable(),
  concurrency: z.coerce.number().int().min(1).max(16),
  export: z.boolean(),
  renders: z.array(RenderArgument).max(20),
  api: ApiArgument,
  dataDir: z.string().min(1),
  dryRun: z.boolean(),
  retryFailed: z.boolean(),
});
export type BatchArguments = z.output<typeof BatchArguments>;

export function parseBatchArguments(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): BatchArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        out: { type: 'string' },
        'body-type': { type: 'string' },
        concurrency: { type: 'string' },
        export: { type: 'boolean' },
        render: { type: 'string', multiple: true },
        api: { type: 'string' },
        'data-dir': { type: 'string' },
        'dry-run': { type: 'boolean' },
        'retry-failed': { type: 'boolean' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1)
    throw new UsageError(`One input only; got ${positionals.length}: ${positionals.join(' ')}`);
  const result = BatchArguments.safeParse({
    input: positionals[0] ?? '',
    out: values.out ?? '',
    bodyType: values['body-type'] ?? null,
    concurrency: values.concurrency ?? '3',
    export: values.export ?? false,
    renders: values.render ?? [],
    api: values.api ?? 'embedded',
    dataDir:
      values['data-dir'] ??
      env.AVATAR_STUDIO_DATA_DIR ??
      path.join(os.homedir(), '.avatar-studio', 'studio'),
    dryRun: values['dry-run'] ?? false,
    retryFailed: values['retry-failed'] ?? false,
  });
  if (!result.success)
    throw new UsageError(
      result.error.issues
        .map((i) => `${i.path.length ? `${String(i.path[0])}: ` : ''}${i.message}`)
        .join('; '),
    );
  return {
    ...result.data,
    input: path.resolve(result.data.input),
    out: path.resolve(result.data.out),
    dataDir: path.resolve(result.data.dataDir),
  };
}
