/**
 * Table-driven tests of what the contract's schemas produce: defaults the spec names,
 * query-string booleans, the keys the schemas strip, and normalizeCustomization.
 */
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import {
  AvatarCustomization,
  BoneScale,
  CreateConfig,
  CreateSessionRequest,
  ListAvatarsQuery,
  RenderQuery,
  SessionConfig,
  StoredCustomization,
  UploadTextFields,
  normalizeCustomization,
} from './index.js';
import type { AvatarCustomizationInput } from './index.js';

/** A row that parses, and the exact output expected of it. */
interface OutputRow {
  name: string;
  schema: ZodType;
  input: unknown;
  output: unknown;
}

function checkOutput({ schema, input, output }: OutputRow): void {
  const result = schema.safeParse(input);
  expect(result.error?.issues ?? []).toEqual([]);
  expect(result.data).toStrictEqual(output);
}

const UUID = 'a1b2c3d4-e5f6-4789-abcd-ef0123456789';
const UUID_2 = '0f1e2d3c-4b5a-4697-8877-665544332211';

describe('defaults the spec names', () => {
  const rows: OutputRow[] = [
    {
      name: 'AvatarCustomization: age adult, skin_tone_correction 0, eye_texture brown',
      schema: AvatarCustomization,
      input: { assets: {}, body: 'body_0' },
      output: {
        assets: {},
        body: 'body_0',
        age: 'adult',
        skin_tone_correction: 0,
        eye_texture: 'brown',
      },
    },
    {
      name: 'AvatarCustomization: given values are kept, not defaulted',
      schema: AvatarCustomization,
      input: {
        assets: {},
        body: 'body_4',
        age: '3-6',
        skin_tone_correction: -0.25,
        eye_texture: 'light_gray',
        metadata: { k: 'v' },
      },
      output: {
        assets: {},
        body: 'body_4',
        age: '3-6',
        skin_tone_correction: -0.25,
        eye_texture: 'light_gray',
        metadata: { k: 'v' },
      },
    },
    {
      name: 'AvatarCustomization: an empty bone_scale gets zeros',
      schema: AvatarCustomization,
      input: { assets: {}, body: 'body_1', bone_scale: {} },
      output: {
        assets: {},
        body: 'body_1',
        age: 'adult',
        bone_scale: { head: 0, arms: 0, chest: 0 },
        skin_tone_correction: 0,
        eye_texture: 'brown',
      },
    },
    {
      name: 'BoneScale: {} gives head, arms and chest 0',
      schema: BoneScale,
      input: {},
      output: { head: 0, arms: 0, chest: 0 },
    },
    {
      name: 'BoneScale: a partial scale keeps its value and fills the rest',
      schema: BoneScale,
      input: { arms: 0.5 },
      output: { head: 0, arms: 0.5, chest: 0 },
    },
    {
      name: 'CreateSessionRequest: config defaults to create_or_edit_existing',
      schema: CreateSessionRequest,
      input: { user_id: 'user_1' },
      output: { user_id: 'user_1', config: { type: 'create_or_edit_existing' } },
    },
    {
      name: 'CreateSessionRequest: a given config is kept',
      schema: CreateSessionRequest,
      input: { user_id: 'user_1', config: { type: 'edit_existing', avatar_id: UUID } },
      output: { user_id: 'user_1', config: { type: 'edit_existing', avatar_id: UUID } },
    },
    {
      name: 'CreateSessionRequest: create config gets custom_upload false',
      schema: CreateSessionRequest,
      input: { user_id: 'user_1', config: { type: 'create' } },
      output: { user_id: 'user_1', config: { type: 'create', custom_upload: false } },
    },
    {
      name: 'CreateConfig: custom_upload defaults to false',
      schema: CreateConfig,
      input: { type: 'create' },
      output: { type: 'create', custom_upload: false },
    },
    {
      name: 'CreateConfig: custom_upload true is kept',
      schema: CreateConfig,
      input: { type: 'create', custom_upload: true },
      output: { type: 'create', custom_upload: true },
    },
    {
      name: 'SessionConfig: create gets custom_upload false',
      schema: SessionConfig,
      input: { type: 'create' },
      output: { type: 'create', custom_upload: false },
    },
    {
      name: 'RenderQuery: format defaults to jpg',
      schema: RenderQuery,
      input: { avatar_id: UUID, scene: 'common/preview' },
      output: { avatar_id: UUID, scene: 'common/preview', format: 'jpg' },
    },
    {
      name: 'RenderQuery: a given format is kept',
      schema: RenderQuery,
      input: { avatar_id: UUID, scene: 'common/preview', format: 'png' },
      output: { avatar_id: UUID, scene: 'common/preview', format: 'png' },
    },
    {
      name: 'ListAvatarsQuery: include_not_ready defaults to false',
      schema: ListAvatarsQuery,
      input: {},
      output: { include_not_ready: false },
    },
    {
      name: 'UploadTextFields: telephoto defaults to false',
      schema: UploadTextFields,
      input: { 'body-type': 'female' },
      output: { 'body-type': 'female', telephoto: false },
    },
  ];
  it.each(rows)('$name', checkOutput);
});

describe('query-string booleans, in any case', () => {
  const spellings: [string, boolean][] = [
    ['true', true],
    ['false', false],
    ['1', true],
    ['0', false],
    ['yes', true],
    ['no', false],
    ['TRUE', true],
    ['False', false],
    ['Yes', true],
    ['NO', false],
  ];
  const rows: OutputRow[] = spellings.flatMap(([text, value]): OutputRow[] => [
    {
      name: `ListAvatarsQuery.include_not_ready '${text}' is ${value}`,
      schema: ListAvatarsQuery,
      input: { include_not_ready: text },
      output: { include_not_ready: value },
    },
    {
      name: `UploadTextFields.telephoto '${text}' is ${value}`,
      schema: UploadTextFields,
      input: { 'body-type': 'male', telephoto: text },
      output: { 'body-type': 'male', telephoto: value },
    },
  ]);
  it.each(rows)('$name', checkOutput);

  it.each([
    {
      name: "ListAvatarsQuery 'maybe'",
      schema: ListAvatarsQuery,
      input: { include_not_ready: 'maybe' },
    },
    {
      name: "UploadTextFields 'maybe'",
      schema: UploadTextFields,
      input: { 'body-type': 'male', telephoto: 'maybe' },
    },
  ])('$name is rejected', ({ schema, input }) => {
    expect(schema.safeParse(input).success).toBe(false);
  });
});

describe('unknown keys of non-strict objects are stripped', () => {
  const rows: OutputRow[] = [
    {
      name: 'unknown slot name in assets',
      schema: AvatarCustomization,
      input: { assets: { hat: { id: UUID }, clothing: { id: UUID } }, body: 'body_2' },
      output: {
        assets: { clothing: { id: UUID } },
        body: 'body_2',
        age: 'adult',
        skin_tone_correction: 0,
        eye_texture: 'brown',
      },
    },
    {
      name: 'unknown top-level field',
      schema: AvatarCustomization,
      input: { assets: {}, body: 'body_2', hair_color: '#000000' },
      output: {
        assets: {},
        body: 'body_2',
        age: 'adult',
        skin_tone_correction: 0,
        eye_texture: 'brown',
      },
    },
    {
      name: 'color on a slot that has none (clothing)',
      schema: AvatarCustomization,
      input: { assets: { clothing: { id: UUID, color: '#102030' } }, body: 'body_2' },
      output: {
        assets: { clothing: { id: UUID } },
        body: 'body_2',
        age: 'adult',
        skin_tone_correction: 0,
        eye_texture: 'brown',
      },
    },
    {
      name: 'unknown field in BoneScale',
      schema: BoneScale,
      input: { head: 1, legs: 2 },
      output: { head: 1, arms: 0, chest: 0 },
    },
  ];
  it.each(rows)('$name', checkOutput);
});

describe('normalizeCustomization', () => {
  interface NormalizeRow {
    name: string;
    input: AvatarCustomizationInput;
    output: StoredCustomization;
  }
  const rows: NormalizeRow[] = [
    {
      name: 'minimal input: every slot null, metadata {}, bone_scale zeros, defaults filled',
      input: { assets: {}, body: 'body_2' },
      output: {
        assets: { clothing: null, hair_and_headwear: null, eyewear: null, footwear: null },
        body: 'body_2',
        age: 'adult',
        metadata: {},
        bone_scale: { head: 0, arms: 0, chest: 0 },
        skin_tone_correction: 0,
        eye_texture: 'brown',
      },
    },
    {
      name: 'null slots stay null',
      input: {
        assets: { clothing: null, hair_and_headwear: null, eyewear: null, footwear: null },
        body: 'body_0',
      },
      output: {
        assets: { clothing: null, hair_and_headwear: null, eyewear: null, footwear: null },
        body: 'body_0',
        age: 'adult',
        metadata: {},
        bone_scale: { head: 0, arms: 0, chest: 0 },
        skin_tone_correction: 0,
        eye_texture: 'brown',
      },
    },
    {
      name: 'upper-case ids in every slot are lower-cased; colours are kept',
      input: {
        assets: {
          clothing: { id: UUID.toUpperCase() },
          hair_and_headwear: { id: UUID_2.toUpperCase(), color: '#a1b2c3' },
          eyewear: { id: 'A1B2C3D4-E5F6-4789-ABCD-EF0123456780', color: '#a1b2c3d4' },
          footwear: { id: 'A1b2C3d4-E5f6-4789-aBcD-eF0123456781' },
        },
        body: 'body_4',
      },
      output: {
        assets: {
          clothing: { id: UUID },
          hair_and_headwear: { id: UUID_2, color: '#a1b2c3' },
          eyewear: { id: 'a1b2c3d4-e5f6-4789-abcd-ef0123456780', color: '#a1b2c3d4' },
          footwear: { id: 'a1b2c3d4-e5f6-4789-abcd-ef0123456781' },
        },
        body: 'body_4',
        age: 'adult',
        metadata: {},
        bone_scale: { head: 0, arms: 0, chest: 0 },
        skin_tone_correction: 0,
        eye_texture: 'brown',
      },
    },
    {
      name: 'an absent or null colour becomes null',
      input: {
        assets: { hair_and_headwear: { id: UUID }, eyewear: { id: UUID_2, color: null } },
        body: 'body_1',
      },
      output: {
        assets: {
          clothing: null,
          hair_and_headwear: { id: UUID, color: null },
          eyewear: { id: UUID_2, color: null },
          footwear: null,
        },
        body: 'body_1',
        age: 'adult',
        metadata: {},
        bone_scale: { head: 0, arms: 0, chest: 0 },
        skin_tone_correction: 0,
        eye_texture: 'brown',
      },
    },
    {
      name: 'given metadata, bone_scale and scalars are kept',
      input: {
        assets: {},
        body: 'body_3',
        age: '7-12',
        metadata: { team: 'blue' },
        bone_scale: { head: 0.1 },
        skin_tone_correction: 0.3,
        eye_texture: 'gray_green',
      },
      output: {
        assets: { clothing: null, hair_and_headwear: null, eyewear: null, footwear: null },
        body: 'body_3',
        age: '7-12',
        metadata: { team: 'blue' },
        bone_scale: { head: 0.1, arms: 0, chest: 0 },
        skin_tone_correction: 0.3,
        eye_texture: 'gray_green',
      },
    },
  ];

  it.each(rows)('$name', ({ input, output }) => {
    const normalized = normalizeCustomization(AvatarCustomization.parse(input));
    expect(normalized).toStrictEqual(output);
  });

  it.each(rows)('$name: the result is a valid GET answer and PUT body', ({ input }) => {
    const normalized = normalizeCustomization(AvatarCustomization.parse(input));
    expect(StoredCustomization.safeParse(normalized).error?.issues ?? []).toEqual([]);
    expect(AvatarCustomization.safeParse(normalized).error?.issues ?? []).toEqual([]);
  });

  it.each(rows)('$name: normalizing twice changes nothing', ({ input }) => {
    const once = normalizeCustomization(AvatarCustomization.parse(input));
    expect(normalizeCustomization(AvatarCustomization.parse(once))).toStrictEqual(once);
  });
});
