/**
 * Table-driven tests of the field constraints of the v1 contract (spec parts 2, 4 and 8):
 * every constraint has at least one valid and one invalid row. An invalid row names the
 * path its issue must point at, so it cannot pass because of some unrelated mistake in
 * the row's input.
 */
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import {
  AgeGroup,
  AssetPlacementError,
  AssetSlot,
  AssetsNotInProjectError,
  AvatarCustomization,
  AvatarIdPathParams,
  AvatarListItem,
  AvatarReadyEvent,
  BodyShape,
  BodyType,
  BoneScale,
  CreateAvatarRequest,
  CreateAvatarResponse,
  CreateConfig,
  CreateOrEditExistingConfig,
  CreateSessionRequest,
  CreateUserResponse,
  EditExistingConfig,
  EventName,
  ExportQuery,
  ExportReadyEvent,
  ExportResult,
  EyeTexture,
  ListAvatarsQuery,
  Metadata,
  RenderFormat,
  RenderQuery,
  RenderReadyEvent,
  RenderResult,
  ScanStatus,
  SessionConfig,
  SessionResponse,
  TaskStatus,
  UploadResponse,
  UploadTextFields,
  UserAvatarPathParams,
  UserPathParams,
} from './index.js';
import { check, type Row } from '../../tests/helpers/schema-table.js';

type Path = readonly (string | number)[];

/** Stands for "leave the key out" in a case's value. */
const OMIT = Symbol('omit');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `base` with `value` at `path` (or the key removed, for OMIT). */
function put(base: unknown, path: Path, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(base)) {
    const copy: unknown[] = [...base];
    copy[Number(head)] = put(copy[Number(head)], rest, value);
    return copy;
  }
  const source = isRecord(base) ? base : {};
  const copy = { ...source };
  if (rest.length === 0 && value === OMIT) delete copy[head];
  else copy[head] = put(source[head], rest, value);
  return copy;
}

/** A value for one field; an invalid one may report its issue below the field (`at`). */
type Case =
  | { name: string; value: unknown; valid: true }
  | { name: string; value: unknown; valid: false; at?: Path };

interface Field {
  label: string;
  schema: ZodType;
  base: unknown;
  path: Path;
}

function fieldRows(field: Field, cases: readonly Case[]): Row[] {
  return cases.map((c): Row => {
    const name = `${field.label}: ${c.name}`;
    const input = put(field.base, field.path, c.value);
    return c.valid
      ? { name, schema: field.schema, input, valid: true }
      : { name, schema: field.schema, input, valid: false, path: [...field.path, ...(c.at ?? [])] };
  });
}

const ok = (name: string, value: unknown): Case => ({ name, value, valid: true });
const bad = (name: string, value: unknown, at?: Path): Case =>
  at ? { name, value, valid: false, at } : { name, value, valid: false };

const UUID = 'a1b2c3d4-e5f6-4789-abcd-ef0123456789';
const UUID_2 = '0f1e2d3c-4b5a-4697-8877-665544332211';
const MINIMAL_CUSTOMIZATION = { assets: {}, body: 'body_0' };

describe('UserId: 1 to 100 characters of [a-zA-Z0-9_-], in paths and bodies', () => {
  const cases: Case[] = [
    ok('one character', 'a'),
    ok('99 characters', 'a'.repeat(99)),
    ok('100 characters', 'a'.repeat(100)),
    ok('underscore only', '_'),
    ok('hyphen only', '-'),
    ok('digits only', '0123456789'),
    ok('every allowed class', 'User_01-abcXYZ'),
    bad('empty string', ''),
    bad('101 characters', 'a'.repeat(101)),
    bad('space', 'user 1'),
    bad('slash', 'user/1'),
    bad('dot', 'user.1'),
    bad('percent-encoding', 'user%201'),
    bad('plus sign', 'user+1'),
    bad('at sign', 'user@example'),
    bad('Latin letter with accent', 'usér'),
    bad('non-Latin script', 'ユーザー'),
    bad('emoji', 'user😀'),
    bad('trailing newline', 'user1\n'),
    bad('leading space', ' user1'),
    bad('a number, not a string', 12345),
    bad('null', null),
    bad('missing', OMIT),
  ];
  const fields: Field[] = [
    { label: 'UserPathParams.user_id', schema: UserPathParams, base: {}, path: ['user_id'] },
    {
      label: 'CreateSessionRequest.user_id',
      schema: CreateSessionRequest,
      base: {},
      path: ['user_id'],
    },
    {
      label: 'CreateAvatarRequest.user_id',
      schema: CreateAvatarRequest,
      base: {},
      path: ['user_id'],
    },
    {
      label: 'UserAvatarPathParams.user_id',
      schema: UserAvatarPathParams,
      base: { avatar_id: UUID },
      path: ['user_id'],
    },
    { label: 'CreateUserResponse.id', schema: CreateUserResponse, base: {}, path: ['id'] },
  ];
  it.each(fields.flatMap((field) => fieldRows(field, cases)))('$name', check);
});

describe('Uuid: any 8-4-4-4-12 hex string, in either case', () => {
  const cases: Case[] = [
    ok('lower case', UUID),
    ok('upper case', UUID.toUpperCase()),
    ok('mixed case', 'A1b2C3d4-E5f6-4789-aBcD-eF0123456789'),
    ok('nil uuid', '00000000-0000-0000-0000-000000000000'),
    ok('no RFC version or variant (guid, not uuid)', 'a1b2c3d4-e5f6-f789-cbcd-ef0123456789'),
    bad('short string', 'abc'),
    bad('32 hex digits without hyphens', UUID.replaceAll('-', '')),
    bad('in braces', `{${UUID}}`),
    bad('urn prefix', `urn:uuid:${UUID}`),
    bad('non-hex digit', 'g1b2c3d4-e5f6-4789-abcd-ef0123456789'),
    bad('last group one digit short', UUID.slice(0, -1)),
    bad('last group one digit long', `${UUID}0`),
    bad('hyphens in the wrong places', 'a1b2c3d-4e5f6-4789-abcd-ef0123456789'),
    bad('leading space', ` ${UUID}`),
    bad('trailing newline', `${UUID}\n`),
    bad('empty string', ''),
    bad('a number, not a string', 1234),
  ];
  const edit = { type: 'edit_existing', avatar_id: UUID };
  const avatarEvent = { avatar_id: UUID, user_id: 'u', session_id: UUID, status: 'ready' };
  const exportEvent = { avatar_id: UUID, user_id: 'u', status: 'ready', export_url: 'https://x' };
  const renderEvent = {
    id: UUID,
    avatar_id: UUID,
    user_id: 'u',
    status: 'ready',
    render_url: 'https://x',
  };
  const fields: Field[] = [
    { label: 'AvatarIdPathParams.id', schema: AvatarIdPathParams, base: {}, path: ['id'] },
    {
      label: 'UserAvatarPathParams.avatar_id',
      schema: UserAvatarPathParams,
      base: { user_id: 'user_1' },
      path: ['avatar_id'],
    },
    {
      label: 'EditExistingConfig.avatar_id',
      schema: EditExistingConfig,
      base: edit,
      path: ['avatar_id'],
    },
    { label: 'SessionConfig.avatar_id', schema: SessionConfig, base: edit, path: ['avatar_id'] },
    {
      label: 'CreateSessionRequest.config.avatar_id',
      schema: CreateSessionRequest,
      base: { user_id: 'user_1', config: edit },
      path: ['config', 'avatar_id'],
    },
    { label: 'ExportQuery.avatar_id', schema: ExportQuery, base: {}, path: ['avatar_id'] },
    {
      label: 'RenderQuery.avatar_id',
      schema: RenderQuery,
      base: { scene: 'common/preview' },
      path: ['avatar_id'],
    },
    ...(['clothing', 'hair_and_headwear', 'eyewear', 'footwear'] as const).map((slot): Field => ({
      label: `AvatarCustomization.assets.${slot}.id`,
      schema: AvatarCustomization,
      base: MINIMAL_CUSTOMIZATION,
      path: ['assets', slot, 'id'],
    })),
    {
      label: 'AvatarReadyEvent.avatar_id',
      schema: AvatarReadyEvent,
      base: avatarEvent,
      path: ['avatar_id'],
    },
    {
      label: 'AvatarReadyEvent.session_id',
      schema: AvatarReadyEvent,
      base: avatarEvent,
      path: ['session_id'],
    },
    {
      label: 'ExportReadyEvent.avatar_id',
      schema: ExportReadyEvent,
      base: exportEvent,
      path: ['avatar_id'],
    },
    { label: 'RenderReadyEvent.id', schema: RenderReadyEvent, base: renderEvent, path: ['id'] },
    {
      label: 'RenderReadyEvent.avatar_id',
      schema: RenderReadyEvent,
      base: renderEvent,
      path: ['avatar_id'],
    },
    {
      label: 'AssetsNotInProjectError.assets_id[1]',
      schema: AssetsNotInProjectError,
      base: { error_code: 'assets_not_in_project', detail: 'd', assets_id: [UUID_2, UUID] },
      path: ['assets_id', 1],
    },
    {
      label: 'AssetPlacementError.asset_id',
      schema: AssetPlacementError,
      base: { error_code: 'asset_placement_error', detail: 'd', placement: 'clothing' },
      path: ['asset_id'],
    },
    { label: 'SessionResponse.id', schema: SessionResponse, base: { url: 'u' }, path: ['id'] },
    {
      label: 'RenderResult.id',
      schema: RenderResult,
      base: { status: 'pending', render_url: null },
      path: ['id'],
    },
    {
      label: 'AvatarListItem.id',
      schema: AvatarListItem,
      base: { status: 'ready' },
      path: ['id'],
    },
    {
      label: 'CreateAvatarResponse.avatar_id',
      schema: CreateAvatarResponse,
      base: { upload_url: 'https://upload' },
      path: ['avatar_id'],
    },
    {
      label: 'UploadResponse.avatar_id',
      schema: UploadResponse,
      base: { status: 'pending' },
      path: ['avatar_id'],
    },
  ];
  it.each(fields.flatMap((field) => fieldRows(field, cases)))('$name', check);
});

describe('enumerations hold exactly the spec values', () => {
  interface EnumTable {
    label: string;
    schema: ZodType;
    options: readonly string[];
    spec: readonly string[];
    invalid: readonly unknown[];
  }
  const tables: EnumTable[] = [
    {
      label: 'BodyShape',
      schema: BodyShape,
      options: BodyShape.options,
      spec: ['body_0', 'body_1', 'body_2', 'body_3', 'body_4'],
      invalid: ['body_5', 'body_-1', 'body0', 'BODY_0', 'body_01', '', 0],
    },
    {
      label: 'AgeGroup',
      schema: AgeGroup,
      options: AgeGroup.options,
      spec: ['3-6', '7-12', '13-16', 'adult'],
      invalid: ['0-2', '17+', '3 - 6', '3_6', 'Adult', 'child', 6],
    },
    {
      label: 'EyeTexture',
      schema: EyeTexture,
      options: EyeTexture.options,
      spec: [
        'light_green',
        'amber',
        'blue',
        'blue_gray_yellow',
        'brown',
        'dark_brown',
        'gray',
        'gray_green',
        'green',
        'light_gray',
      ],
      invalid: ['purple', 'hazel', 'Brown', 'light-green', 'grey', ''],
    },
    {
      label: 'RenderFormat',
      schema: RenderFormat,
      options: RenderFormat.options,
      spec: ['jpg', 'png', 'webp'],
      invalid: ['jpeg', 'gif', 'JPG', '.png', ''],
    },
    {
      label: 'ScanStatus',
      schema: ScanStatus,
      options: ScanStatus.options,
      spec: ['pending', 'processing', 'ready', 'failed'],
      invalid: ['done', 'READY', 'cancelled', ''],
    },
    {
      label: 'TaskStatus',
      schema: TaskStatus,
      options: TaskStatus.options,
      spec: ['pending', 'ready', 'failed'],
      invalid: ['processing', 'done', 'Pending', ''],
    },
    {
      label: 'BodyType',
      schema: BodyType,
      options: BodyType.options,
      spec: ['male', 'female'],
      invalid: ['Male', 'FEMALE', 'other', 'm', ''],
    },
    {
      label: 'AssetSlot',
      schema: AssetSlot,
      options: AssetSlot.options,
      spec: ['clothing', 'hair_and_headwear', 'eyewear', 'footwear'],
      invalid: ['hair', 'headwear', 'shoes', 'Clothing'],
    },
    {
      label: 'EventName',
      schema: EventName,
      options: EventName.options,
      spec: ['avatar.ready', 'export.ready', 'render.ready'],
      invalid: ['avatar.created', 'AVATAR.READY', 'avatar_ready', ''],
    },
  ];

  it.each(tables)('$label has no values beyond the spec', ({ options, spec }) => {
    expect(new Set(options)).toEqual(new Set(spec));
  });

  const rows = tables.flatMap(({ label, schema, spec, invalid }): Row[] => [
    ...spec.map((value): Row => ({
      name: `${label}: '${value}'`,
      schema,
      input: value,
      valid: true,
    })),
    ...invalid.map((value): Row => ({
      name: `${label}: ${JSON.stringify(value)}`,
      schema,
      input: value,
      valid: false,
      path: [],
    })),
  ]);
  it.each(rows)('$name', check);
});

describe('enumerations inside their objects', () => {
  const renderQuery = { avatar_id: UUID, scene: 'common/preview' };
  const rows: Row[] = [
    ...fieldRows(
      {
        label: 'AvatarCustomization.body',
        schema: AvatarCustomization,
        base: MINIMAL_CUSTOMIZATION,
        path: ['body'],
      },
      [ok('body_4', 'body_4'), bad('body_5', 'body_5'), bad('missing', OMIT)],
    ),
    ...fieldRows(
      {
        label: 'AvatarCustomization.age',
        schema: AvatarCustomization,
        base: MINIMAL_CUSTOMIZATION,
        path: ['age'],
      },
      [ok('13-16', '13-16'), bad('17+', '17+'), bad('null', null)],
    ),
    ...fieldRows(
      {
        label: 'AvatarCustomization.eye_texture',
        schema: AvatarCustomization,
        base: MINIMAL_CUSTOMIZATION,
        path: ['eye_texture'],
      },
      [ok('blue_gray_yellow', 'blue_gray_yellow'), bad('purple', 'purple')],
    ),
    ...fieldRows(
      { label: 'RenderQuery.format', schema: RenderQuery, base: renderQuery, path: ['format'] },
      [ok('webp', 'webp'), bad('gif', 'gif')],
    ),
    ...fieldRows(
      {
        label: 'AvatarListItem.status',
        schema: AvatarListItem,
        base: { id: UUID },
        path: ['status'],
      },
      [ok('processing', 'processing'), bad('done', 'done'), bad('missing', OMIT)],
    ),
    ...fieldRows(
      { label: 'ExportResult.status', schema: ExportResult, base: { url: null }, path: ['status'] },
      [ok('pending', 'pending'), bad('processing', 'processing'), bad('missing', OMIT)],
    ),
    ...fieldRows(
      {
        label: 'RenderResult.status',
        schema: RenderResult,
        base: { id: UUID, render_url: null },
        path: ['status'],
      },
      [ok('failed', 'failed'), bad('processing', 'processing'), bad('missing', OMIT)],
    ),
    ...fieldRows(
      {
        label: 'UploadTextFields.body-type',
        schema: UploadTextFields,
        base: {},
        path: ['body-type'],
      },
      [ok('female', 'female'), bad('other', 'other'), bad('missing', OMIT)],
    ),
  ];
  it.each(rows)('$name', check);
});

describe('colours: hair is lower-case #rrggbb, eyewear lower-case #rrggbbaa', () => {
  const hair: Field = {
    label: 'hair_and_headwear.color',
    schema: AvatarCustomization,
    base: { assets: { hair_and_headwear: { id: UUID } }, body: 'body_1' },
    path: ['assets', 'hair_and_headwear', 'color'],
  };
  const eyewear: Field = {
    label: 'eyewear.color',
    schema: AvatarCustomization,
    base: { assets: { eyewear: { id: UUID } }, body: 'body_1' },
    path: ['assets', 'eyewear', 'color'],
  };
  const rows: Row[] = [
    ...fieldRows(hair, [
      ok('#a1b2c3', '#a1b2c3'),
      ok('#000000', '#000000'),
      ok('#ffffff', '#ffffff'),
      ok('null', null),
      ok('absent', OMIT),
      bad('upper case #A1B2C3', '#A1B2C3'),
      bad('mixed case #a1B2c3', '#a1B2c3'),
      bad('short form #abc', '#abc'),
      bad('RGBA #a1b2c3d4', '#a1b2c3d4'),
      bad('without #', 'a1b2c3'),
      bad('five digits', '#a1b2c'),
      bad('seven digits', '#a1b2c3d'),
      bad('non-hex digit', '#g1b2c3'),
      bad('trailing space', '#a1b2c3 '),
      bad('colour name', 'red'),
      bad('empty string', ''),
      bad('a number', 0xa1b2c3),
    ]),
    ...fieldRows(eyewear, [
      ok('#a1b2c3d4', '#a1b2c3d4'),
      ok('#00000000', '#00000000'),
      ok('#ffffffff', '#ffffffff'),
      ok('null', null),
      ok('absent', OMIT),
      bad('RGB #a1b2c3', '#a1b2c3'),
      bad('upper case #A1B2C3D4', '#A1B2C3D4'),
      bad('short form #abcd', '#abcd'),
      bad('ten digits', '#a1b2c3d4e5'),
      bad('without #', 'a1b2c3d4'),
      bad('non-hex digit', '#a1b2c3dg'),
      bad('empty string', ''),
    ]),
  ];
  it.each(rows)('$name', check);
});

describe('asset slots: each optional and nullable, id required', () => {
  const slots = ['clothing', 'hair_and_headwear', 'eyewear', 'footwear'] as const;
  const rows: Row[] = slots.flatMap((slot) =>
    fieldRows(
      {
        label: `assets.${slot}`,
        schema: AvatarCustomization,
        base: MINIMAL_CUSTOMIZATION,
        path: ['assets', slot],
      },
      [
        ok('absent', OMIT),
        ok('null', null),
        ok('{id}', { id: UUID }),
        bad('{} (id missing)', {}, ['id']),
        bad('id null', { id: null }, ['id']),
        bad('a bare uuid instead of {id}', UUID),
        bad('two assets in one slot', [{ id: UUID }, { id: UUID_2 }]),
      ],
    ),
  );
  const whole: Row[] = [
    {
      name: 'all four slots filled',
      schema: AvatarCustomization,
      valid: true,
      input: {
        body: 'body_3',
        assets: {
          clothing: { id: UUID },
          hair_and_headwear: { id: UUID, color: '#102030' },
          eyewear: { id: UUID_2, color: '#10203040' },
          footwear: { id: UUID_2 },
        },
      },
    },
    {
      name: 'all four slots null',
      schema: AvatarCustomization,
      valid: true,
      input: {
        body: 'body_3',
        assets: { clothing: null, hair_and_headwear: null, eyewear: null, footwear: null },
      },
    },
    {
      name: 'unknown slot name is accepted (and stripped, see defaults.test.ts)',
      schema: AvatarCustomization,
      input: { body: 'body_3', assets: { hat: { id: UUID } } },
      valid: true,
    },
    {
      name: 'assets missing',
      schema: AvatarCustomization,
      input: { body: 'body_3' },
      valid: false,
      path: ['assets'],
    },
    {
      name: 'assets null',
      schema: AvatarCustomization,
      input: { body: 'body_3', assets: null },
      valid: false,
      path: ['assets'],
    },
    {
      name: 'assets as an array',
      schema: AvatarCustomization,
      input: { body: 'body_3', assets: [{ id: UUID }] },
      valid: false,
      path: ['assets'],
    },
  ];
  it.each([...rows, ...whole])('$name', check);
});

describe('metadata: at most 10 string pairs, keys <= 50 and values <= 500 characters', () => {
  const pairs = (n: number): Record<string, string> =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, `value${i}`]));
  const field: Field = {
    label: 'metadata',
    schema: AvatarCustomization,
    base: MINIMAL_CUSTOMIZATION,
    path: ['metadata'],
  };
  const rows: Row[] = [
    ...fieldRows(field, [
      ok('absent', OMIT),
      ok('empty', {}),
      ok('1 pair', pairs(1)),
      ok('10 pairs', pairs(10)),
      bad('11 pairs', pairs(11)),
      ok('key of 50 characters', { ['k'.repeat(50)]: 'v' }),
      bad('key of 51 characters', { ['k'.repeat(51)]: 'v' }, ['k'.repeat(51)]),
      ok('key of 50 astral characters (100 UTF-16 units)', { ['😀'.repeat(50)]: 'v' }),
      bad('key of 51 astral characters', { ['😀'.repeat(51)]: 'v' }, ['😀'.repeat(51)]),
      ok('value of 500 characters', { k: 'v'.repeat(500) }),
      bad('value of 501 characters', { k: 'v'.repeat(501) }, ['k']),
      ok('value of 500 astral characters (1000 UTF-16 units)', { k: '😀'.repeat(500) }),
      bad('value of 501 astral characters', { k: '😀'.repeat(501) }, ['k']),
      ok('empty value', { k: '' }),
      bad('number value', { k: 1 }, ['k']),
      bad('boolean value', { k: true }, ['k']),
      bad('null value', { k: null }, ['k']),
      bad('object value', { k: { nested: 'v' } }, ['k']),
      bad('array value', { k: ['v'] }, ['k']),
      bad('an array instead of an object', ['v']),
      bad('a string instead of an object', 'k=v'),
    ]),
    { name: 'Metadata alone: 10 pairs', schema: Metadata, input: pairs(10), valid: true },
    {
      name: 'Metadata alone: 11 pairs',
      schema: Metadata,
      input: pairs(11),
      valid: false,
      path: [],
    },
  ];
  it.each(rows)('$name', check);
});

describe('numbers: skin_tone_correction and bone_scale', () => {
  const rows: Row[] = [
    ...fieldRows(
      {
        label: 'skin_tone_correction',
        schema: AvatarCustomization,
        base: MINIMAL_CUSTOMIZATION,
        path: ['skin_tone_correction'],
      },
      [ok('0.5', 0.5), ok('-1', -1), bad('numeric string', '0.5'), bad('null', null)],
    ),
    ...(['head', 'arms', 'chest'] as const).flatMap((bone) =>
      fieldRows(
        {
          label: `bone_scale.${bone}`,
          schema: AvatarCustomization,
          base: { ...MINIMAL_CUSTOMIZATION, bone_scale: {} },
          path: ['bone_scale', bone],
        },
        [ok('1.25', 1.25), ok('-0.5', -0.5), bad('numeric string', '1'), bad('null', null)],
      ),
    ),
    { name: 'BoneScale alone: {}', schema: BoneScale, input: {}, valid: true },
    {
      name: 'BoneScale alone: a number instead of an object',
      schema: BoneScale,
      input: 1,
      valid: false,
      path: [],
    },
  ];
  it.each(rows)('$name', check);
});

describe('session config: discriminated by type, no unknown properties', () => {
  const variants: Row[] = [
    {
      name: 'create_or_edit_existing',
      schema: SessionConfig,
      input: { type: 'create_or_edit_existing' },
      valid: true,
    },
    { name: 'create', schema: SessionConfig, input: { type: 'create' }, valid: true },
    {
      name: 'create with custom_upload true',
      schema: SessionConfig,
      input: { type: 'create', custom_upload: true },
      valid: true,
    },
    {
      name: 'create with custom_upload false',
      schema: SessionConfig,
      input: { type: 'create', custom_upload: false },
      valid: true,
    },
    {
      name: 'create with custom_upload as a string',
      schema: SessionConfig,
      input: { type: 'create', custom_upload: 'true' },
      valid: false,
      path: ['custom_upload'],
    },
    {
      name: 'edit_existing with avatar_id',
      schema: SessionConfig,
      input: { type: 'edit_existing', avatar_id: UUID },
      valid: true,
    },
    {
      name: 'edit_existing without avatar_id',
      schema: SessionConfig,
      input: { type: 'edit_existing' },
      valid: false,
      path: ['avatar_id'],
    },
    {
      name: 'edit_existing with avatar_id null',
      schema: SessionConfig,
      input: { type: 'edit_existing', avatar_id: null },
      valid: false,
      path: ['avatar_id'],
    },
    {
      name: 'create_or_edit_existing with an unknown property',
      schema: SessionConfig,
      input: { type: 'create_or_edit_existing', extra: 1 },
      valid: false,
      path: [],
    },
    {
      name: 'create_or_edit_existing with another variant’s avatar_id',
      schema: SessionConfig,
      input: { type: 'create_or_edit_existing', avatar_id: UUID },
      valid: false,
      path: [],
    },
    {
      name: 'create with an unknown property',
      schema: SessionConfig,
      input: { type: 'create', extra: 1 },
      valid: false,
      path: [],
    },
    {
      name: 'create with another variant’s avatar_id',
      schema: SessionConfig,
      input: { type: 'create', avatar_id: UUID },
      valid: false,
      path: [],
    },
    {
      name: 'edit_existing with an unknown property',
      schema: SessionConfig,
      input: { type: 'edit_existing', avatar_id: UUID, extra: 1 },
      valid: false,
      path: [],
    },
    {
      name: 'edit_existing with another variant’s custom_upload',
      schema: SessionConfig,
      input: { type: 'edit_existing', avatar_id: UUID, custom_upload: false },
      valid: false,
      path: [],
    },
    {
      name: 'unknown type',
      schema: SessionConfig,
      input: { type: 'delete' },
      valid: false,
      path: ['type'],
    },
    {
      name: 'type in another case',
      schema: SessionConfig,
      input: { type: 'Create' },
      valid: false,
      path: ['type'],
    },
    { name: 'type missing', schema: SessionConfig, input: {}, valid: false, path: ['type'] },
    {
      name: 'type missing but avatar_id given',
      schema: SessionConfig,
      input: { avatar_id: UUID },
      valid: false,
      path: ['type'],
    },
    {
      name: 'type null',
      schema: SessionConfig,
      input: { type: null },
      valid: false,
      path: ['type'],
    },
    { name: 'a bare type string', schema: SessionConfig, input: 'create', valid: false, path: [] },
  ];
  const single: Row[] = [
    {
      name: 'CreateOrEditExistingConfig: exact',
      schema: CreateOrEditExistingConfig,
      input: { type: 'create_or_edit_existing' },
      valid: true,
    },
    {
      name: 'CreateOrEditExistingConfig: wrong type',
      schema: CreateOrEditExistingConfig,
      input: { type: 'create' },
      valid: false,
      path: ['type'],
    },
    { name: 'CreateConfig: exact', schema: CreateConfig, input: { type: 'create' }, valid: true },
    {
      name: 'CreateConfig: unknown property',
      schema: CreateConfig,
      input: { type: 'create', avatar_id: UUID },
      valid: false,
      path: [],
    },
    {
      name: 'EditExistingConfig: exact',
      schema: EditExistingConfig,
      input: { type: 'edit_existing', avatar_id: UUID },
      valid: true,
    },
    {
      name: 'EditExistingConfig: avatar_id missing',
      schema: EditExistingConfig,
      input: { type: 'edit_existing' },
      valid: false,
      path: ['avatar_id'],
    },
  ];
  const inRequest: Row[] = [
    {
      name: 'request without config',
      schema: CreateSessionRequest,
      input: { user_id: 'u1' },
      valid: true,
    },
    {
      name: 'request with create config',
      schema: CreateSessionRequest,
      input: { user_id: 'u1', config: { type: 'create', custom_upload: true } },
      valid: true,
    },
    {
      name: 'request with an unknown property in config',
      schema: CreateSessionRequest,
      input: { user_id: 'u1', config: { type: 'create', extra: 1 } },
      valid: false,
      path: ['config'],
    },
    {
      name: 'request with an unknown config type',
      schema: CreateSessionRequest,
      input: { user_id: 'u1', config: { type: 'view' } },
      valid: false,
      path: ['config', 'type'],
    },
    {
      name: 'request with config null',
      schema: CreateSessionRequest,
      input: { user_id: 'u1', config: null },
      valid: false,
      path: ['config'],
    },
  ];
  it.each([...variants, ...single, ...inRequest])('$name', check);
});

describe('render query: scene matches ^[a-zA-Z0-9_/]+$ and avatar_id is required', () => {
  const field: Field = {
    label: 'RenderQuery.scene',
    schema: RenderQuery,
    base: { avatar_id: UUID },
    path: ['scene'],
  };
  const rows: Row[] = [
    ...fieldRows(field, [
      ok('common/preview', 'common/preview'),
      ok('letters, digits, underscore, slash', 'Scene_01/Part_2'),
      ok('one character', 'a'),
      bad('missing', OMIT),
      bad('empty', ''),
      bad('space', 'common preview'),
      bad('hyphen', 'common-preview'),
      bad('dot', 'common.preview'),
      bad('parent directory', '../secret'),
      bad('query string', 'common/preview?x=1'),
      bad('backslash', 'common\\preview'),
    ]),
    {
      name: 'RenderQuery.avatar_id: missing',
      schema: RenderQuery,
      input: { scene: 'common/preview' },
      valid: false,
      path: ['avatar_id'],
    },
    {
      name: 'ExportQuery.avatar_id: missing',
      schema: ExportQuery,
      input: {},
      valid: false,
      path: ['avatar_id'],
    },
  ];
  it.each(rows)('$name', check);
});

describe('query and form booleans: pydantic spellings only', () => {
  const cases: Case[] = [
    ...['true', 'false', '1', '0', 'yes', 'no', 'TRUE', 'False', 'YES', 'No', 'on', 'off'].map(
      (value) => ok(`'${value}'`, value),
    ),
    bad("'maybe'", 'maybe'),
    bad('empty string', ''),
    bad("'2'", '2'),
    bad("' true' with a space", ' true'),
    bad("'truthy'", 'truthy'),
    bad('a JSON boolean, not a query string', true),
  ];
  const rows: Row[] = [
    ...fieldRows(
      {
        label: 'ListAvatarsQuery.include_not_ready',
        schema: ListAvatarsQuery,
        base: {},
        path: ['include_not_ready'],
      },
      [...cases, ok('absent', OMIT)],
    ),
    ...fieldRows(
      {
        label: 'UploadTextFields.telephoto',
        schema: UploadTextFields,
        base: { 'body-type': 'male' },
        path: ['telephoto'],
      },
      [...cases, ok('absent', OMIT)],
    ),
  ];
  it.each(rows)('$name', check);
});
