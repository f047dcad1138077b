/**
 * Table-driven tests of the bodies the service answers with: error bodies (spec part 7)
 * and results (spec parts 2 and 4). Id formats are covered in constraints.test.ts.
 */
import { describe, it } from 'vitest';
import {
  AssetPlacementError,
  AssetsNotInProjectError,
  AvatarList,
  CreateAvatarResponse,
  ExportResult,
  HTTPValidationError,
  RenderResult,
  SessionResponse,
  StoredCustomization,
} from './index.js';
import { check, type Row, without } from '../../tests/helpers/schema-table.js';

type Path = readonly (string | number)[];

const UUID = 'a1b2c3d4-e5f6-4789-abcd-ef0123456789';
const UUID_2 = '0f1e2d3c-4b5a-4697-8877-665544332211';

describe('HTTPValidationError (422)', () => {
  const item = {
    loc: ['body', 'user_id'],
    msg: 'String should match pattern',
    type: 'string_pattern_mismatch',
  };
  const body = (detailItem: unknown): unknown => ({ detail: [detailItem] });
  const at: Path = ['detail', 0];
  const rows: Row[] = [
    { name: 'one item', schema: HTTPValidationError, input: body(item), valid: true },
    { name: 'no items', schema: HTTPValidationError, input: { detail: [] }, valid: true },
    {
      name: 'loc mixing strings and integers',
      schema: HTTPValidationError,
      input: body({ ...item, loc: ['body', 'metadata', 0, 'key'] }),
      valid: true,
    },
    {
      name: 'empty loc',
      schema: HTTPValidationError,
      input: body({ ...item, loc: [] }),
      valid: true,
    },
    {
      name: 'with input and ctx',
      schema: HTTPValidationError,
      input: body({ ...item, input: 'bad id', ctx: { pattern: '^[a-zA-Z0-9_-]+$' } }),
      valid: true,
    },
    {
      name: 'input of any JSON type (null)',
      schema: HTTPValidationError,
      input: body({ ...item, input: null }),
      valid: true,
    },
    {
      name: 'input of any JSON type (object)',
      schema: HTTPValidationError,
      input: body({ ...item, input: { user_id: '' } }),
      valid: true,
    },
    {
      name: 'empty ctx',
      schema: HTTPValidationError,
      input: body({ ...item, ctx: {} }),
      valid: true,
    },
    {
      name: 'detail missing',
      schema: HTTPValidationError,
      input: {},
      valid: false,
      path: ['detail'],
    },
    {
      name: 'detail a string (the HTTPException shape)',
      schema: HTTPValidationError,
      input: { detail: 'Not Found' },
      valid: false,
      path: ['detail'],
    },
    ...(['loc', 'msg', 'type'] as const).map((key): Row => ({
      name: `${key} missing`,
      schema: HTTPValidationError,
      input: body(without(item, key)),
      valid: false,
      path: [...at, key],
    })),
    {
      name: 'loc a string',
      schema: HTTPValidationError,
      input: body({ ...item, loc: 'body.user_id' }),
      valid: false,
      path: [...at, 'loc'],
    },
    {
      name: 'loc with a fraction',
      schema: HTTPValidationError,
      input: body({ ...item, loc: ['body', 1.5] }),
      valid: false,
      path: [...at, 'loc', 1],
    },
    {
      name: 'loc with null',
      schema: HTTPValidationError,
      input: body({ ...item, loc: ['body', null] }),
      valid: false,
      path: [...at, 'loc', 1],
    },
    {
      name: 'loc with a boolean',
      schema: HTTPValidationError,
      input: body({ ...item, loc: [true] }),
      valid: false,
      path: [...at, 'loc', 0],
    },
    {
      name: 'msg a number',
      schema: HTTPValidationError,
      input: body({ ...item, msg: 422 }),
      valid: false,
      path: [...at, 'msg'],
    },
    {
      name: 'type null',
      schema: HTTPValidationError,
      input: body({ ...item, type: null }),
      valid: false,
      path: [...at, 'type'],
    },
    {
      name: 'ctx a string',
      schema: HTTPValidationError,
      input: body({ ...item, ctx: 'pattern' }),
      valid: false,
      path: [...at, 'ctx'],
    },
    {
      name: 'ctx an array',
      schema: HTTPValidationError,
      input: body({ ...item, ctx: ['pattern'] }),
      valid: false,
      path: [...at, 'ctx'],
    },
  ];
  it.each(rows)('$name', check);
});

describe('AssetsNotInProjectError (410) and AssetPlacementError (409)', () => {
  const notInProject = {
    error_code: 'assets_not_in_project',
    detail: 'Some assets are not in the project',
    assets_id: [UUID, UUID_2],
  };
  const placement = {
    error_code: 'asset_placement_error',
    detail: 'Asset cannot be placed in clothing',
    asset_id: UUID,
    placement: 'clothing',
  };
  const rows: Row[] = [
    { name: '410: the example', schema: AssetsNotInProjectError, input: notInProject, valid: true },
    {
      name: '410: one upper-case id',
      schema: AssetsNotInProjectError,
      input: { ...notInProject, assets_id: [UUID.toUpperCase()] },
      valid: true,
    },
    {
      name: '410: no ids',
      schema: AssetsNotInProjectError,
      input: { ...notInProject, assets_id: [] },
      valid: true,
    },
    {
      name: '410: error_code of the 409',
      schema: AssetsNotInProjectError,
      input: { ...notInProject, error_code: 'asset_placement_error' },
      valid: false,
      path: ['error_code'],
    },
    {
      name: '410: error_code in another case',
      schema: AssetsNotInProjectError,
      input: { ...notInProject, error_code: 'ASSETS_NOT_IN_PROJECT' },
      valid: false,
      path: ['error_code'],
    },
    ...(['error_code', 'detail', 'assets_id'] as const).map((key): Row => ({
      name: `410: ${key} missing`,
      schema: AssetsNotInProjectError,
      input: without(notInProject, key),
      valid: false,
      path: [key],
    })),
    {
      name: '410: assets_id a single uuid, not an array',
      schema: AssetsNotInProjectError,
      input: { ...notInProject, assets_id: UUID },
      valid: false,
      path: ['assets_id'],
    },
    {
      name: '410: assets_id with a non-uuid',
      schema: AssetsNotInProjectError,
      input: { ...notInProject, assets_id: [UUID, 'abc'] },
      valid: false,
      path: ['assets_id', 1],
    },
    { name: '409: the example', schema: AssetPlacementError, input: placement, valid: true },
    {
      name: '409: another placement',
      schema: AssetPlacementError,
      input: { ...placement, placement: 'eyewear' },
      valid: true,
    },
    {
      name: '409: error_code of the 410',
      schema: AssetPlacementError,
      input: { ...placement, error_code: 'assets_not_in_project' },
      valid: false,
      path: ['error_code'],
    },
    ...(['error_code', 'detail', 'asset_id', 'placement'] as const).map((key): Row => ({
      name: `409: ${key} missing`,
      schema: AssetPlacementError,
      input: without(placement, key),
      valid: false,
      path: [key],
    })),
    {
      name: '409: asset_id an array',
      schema: AssetPlacementError,
      input: { ...placement, asset_id: [UUID] },
      valid: false,
      path: ['asset_id'],
    },
    {
      name: '409: placement a number',
      schema: AssetPlacementError,
      input: { ...placement, placement: 1 },
      valid: false,
      path: ['placement'],
    },
  ];
  it.each(rows)('$name', check);
});

describe('results', () => {
  const session = { url: 'https://avatars.example/session/xyz', id: UUID };
  const rows: Row[] = [
    { name: 'Session: url and id', schema: SessionResponse, input: session, valid: true },
    {
      name: 'Session: custom_upload_url null',
      schema: SessionResponse,
      input: { ...session, custom_upload_url: null },
      valid: true,
    },
    {
      name: 'Session: custom_upload_url a string',
      schema: SessionResponse,
      input: { ...session, custom_upload_url: 'https://upload' },
      valid: true,
    },
    {
      name: 'Session: custom_upload_url a number',
      schema: SessionResponse,
      input: { ...session, custom_upload_url: 1 },
      valid: false,
      path: ['custom_upload_url'],
    },
    ...(['url', 'id'] as const).map((key): Row => ({
      name: `Session: ${key} missing`,
      schema: SessionResponse,
      input: without(session, key),
      valid: false,
      path: [key],
    })),
    {
      name: 'Session: url null',
      schema: SessionResponse,
      input: { ...session, url: null },
      valid: false,
      path: ['url'],
    },
    {
      name: 'ExportResult: pending, url null',
      schema: ExportResult,
      input: { status: 'pending', url: null },
      valid: true,
    },
    {
      name: 'ExportResult: ready with a url',
      schema: ExportResult,
      input: { status: 'ready', url: 'https://cdn.example/a.glb' },
      valid: true,
    },
    {
      name: 'ExportResult: failed, url null',
      schema: ExportResult,
      input: { status: 'failed', url: null },
      valid: true,
    },
    {
      name: 'ExportResult: url missing (nullable but required)',
      schema: ExportResult,
      input: { status: 'pending' },
      valid: false,
      path: ['url'],
    },
    {
      name: 'ExportResult: url a number',
      schema: ExportResult,
      input: { status: 'ready', url: 1 },
      valid: false,
      path: ['url'],
    },
    {
      name: 'ExportResult: status missing',
      schema: ExportResult,
      input: { url: null },
      valid: false,
      path: ['status'],
    },
    {
      name: 'RenderResult: pending, render_url null',
      schema: RenderResult,
      input: { id: UUID, status: 'pending', render_url: null },
      valid: true,
    },
    {
      name: 'RenderResult: ready with a render_url',
      schema: RenderResult,
      input: { id: UUID, status: 'ready', render_url: 'https://cdn.example/r.jpg' },
      valid: true,
    },
    {
      name: 'RenderResult: render_url missing (nullable but required)',
      schema: RenderResult,
      input: { id: UUID, status: 'pending' },
      valid: false,
      path: ['render_url'],
    },
    {
      name: 'RenderResult: id missing',
      schema: RenderResult,
      input: { status: 'pending', render_url: null },
      valid: false,
      path: ['id'],
    },
    {
      name: 'CreateAvatarResponse: avatar_id and upload_url',
      schema: CreateAvatarResponse,
      input: { avatar_id: UUID, upload_url: 'https://upload.example/x' },
      valid: true,
    },
    {
      name: 'CreateAvatarResponse: upload_url missing',
      schema: CreateAvatarResponse,
      input: { avatar_id: UUID },
      valid: false,
      path: ['upload_url'],
    },
    { name: 'AvatarList: empty', schema: AvatarList, input: [], valid: true },
    {
      name: 'AvatarList: items in every status',
      schema: AvatarList,
      input: ['pending', 'processing', 'ready', 'failed'].map((status) => ({ id: UUID, status })),
      valid: true,
    },
    {
      name: 'AvatarList: second item with an unknown status',
      schema: AvatarList,
      input: [
        { id: UUID, status: 'ready' },
        { id: UUID_2, status: 'deleted' },
      ],
      valid: false,
      path: [1, 'status'],
    },
  ];
  it.each(rows)('$name', check);
});

describe('StoredCustomization (GET answer): every field present', () => {
  const stored = {
    assets: {
      clothing: { id: UUID },
      hair_and_headwear: { id: UUID, color: '#a1b2c3' },
      eyewear: { id: UUID_2, color: null },
      footwear: null,
    },
    body: 'body_0',
    age: 'adult',
    metadata: {},
    bone_scale: { head: 0, arms: 0, chest: 0 },
    skin_tone_correction: 0,
    eye_texture: 'brown',
  };
  const rows: Row[] = [
    { name: 'complete', schema: StoredCustomization, input: stored, valid: true },
    ...['age', 'metadata', 'bone_scale', 'skin_tone_correction', 'eye_texture'].map((key): Row => ({
      name: `${key} missing`,
      schema: StoredCustomization,
      input: without(stored, key),
      valid: false,
      path: [key],
    })),
    ...['clothing', 'hair_and_headwear', 'eyewear', 'footwear'].map((slot): Row => ({
      name: `slot ${slot} missing`,
      schema: StoredCustomization,
      input: { ...stored, assets: without(stored.assets, slot) },
      valid: false,
      path: ['assets', slot],
    })),
    {
      name: 'hair colour missing',
      schema: StoredCustomization,
      input: { ...stored, assets: { ...stored.assets, hair_and_headwear: { id: UUID } } },
      valid: false,
      path: ['assets', 'hair_and_headwear', 'color'],
    },
    {
      name: 'bone_scale incomplete',
      schema: StoredCustomization,
      input: { ...stored, bone_scale: { head: 0 } },
      valid: false,
      path: ['bone_scale', 'arms'],
    },
    {
      name: 'eyewear colour in RGB',
      schema: StoredCustomization,
      input: { ...stored, assets: { ...stored.assets, eyewear: { id: UUID_2, color: '#a1b2c3' } } },
      valid: false,
      path: ['assets', 'eyewear', 'color'],
    },
  ];
  it.each(rows)('$name', check);
});
