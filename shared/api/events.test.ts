/**
 * Table-driven tests of the webhook event bodies (spec part 6). Id formats are covered
 * in constraints.test.ts; this file covers each event's fields and the WebhookEvent union.
 */
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { AvatarReadyEvent, ExportReadyEvent, RenderReadyEvent, WebhookEvent } from './index.js';
import { check, type Row, without } from '../../tests/helpers/schema-table.js';

const AVATAR_ID = 'a1b2c3d4-e5f6-4789-abcd-ef0123456789';
const SESSION_ID = '0f1e2d3c-4b5a-4697-8877-665544332211';
const RENDER_ID = '9e8d7c6b-5a49-4837-a625-140312f0e1d2';

const avatarReady = {
  event: 'avatar.ready',
  avatar_id: AVATAR_ID,
  user_id: 'user_1',
  session_id: SESSION_ID,
  status: 'ready',
};
const exportReady = {
  event: 'export.ready',
  avatar_id: AVATAR_ID,
  user_id: 'user_1',
  status: 'ready',
  export_url: 'https://cdn.example/exports/a1b2.glb',
};
const renderReady = {
  event: 'render.ready',
  id: RENDER_ID,
  avatar_id: AVATAR_ID,
  user_id: 'user_1',
  status: 'ready',
  render_url: 'https://cdn.example/renders/9e8d.jpg',
};

interface EventTable {
  label: string;
  schema: ZodType;
  example: Record<string, unknown>;
  /** Keys the spec marks required, `null` allowed or not. */
  required: readonly string[];
  /** Keys whose value may be null. */
  nullable: readonly string[];
  otherEvent: string;
}

const tables: EventTable[] = [
  {
    label: 'AvatarReadyEvent',
    schema: AvatarReadyEvent,
    example: avatarReady,
    required: ['avatar_id', 'user_id', 'session_id', 'status'],
    nullable: ['user_id', 'session_id'],
    otherEvent: 'export.ready',
  },
  {
    label: 'ExportReadyEvent',
    schema: ExportReadyEvent,
    example: exportReady,
    required: ['avatar_id', 'user_id', 'status', 'export_url'],
    nullable: ['user_id', 'export_url'],
    otherEvent: 'render.ready',
  },
  {
    label: 'RenderReadyEvent',
    schema: RenderReadyEvent,
    example: renderReady,
    required: ['id', 'avatar_id', 'user_id', 'status', 'render_url'],
    nullable: ['user_id', 'render_url'],
    otherEvent: 'avatar.ready',
  },
];

describe('event bodies', () => {
  const rows = tables.flatMap(
    ({ label, schema, example, required, nullable, otherEvent }): Row[] => [
      { name: `${label}: the example`, schema, input: example, valid: true },
      {
        name: `${label}: event is optional`,
        schema,
        input: without(example, 'event'),
        valid: true,
      },
      {
        name: `${label}: status failed`,
        schema,
        input: { ...example, status: 'failed' },
        valid: true,
      },
      ...['pending', 'processing', 'READY', 'success', ''].map((status): Row => ({
        name: `${label}: status '${status}'`,
        schema,
        input: { ...example, status },
        valid: false,
        path: ['status'],
      })),
      {
        name: `${label}: event of another kind (${otherEvent})`,
        schema,
        input: { ...example, event: otherEvent },
        valid: false,
        path: ['event'],
      },
      {
        name: `${label}: event in another case`,
        schema,
        input: { ...example, event: String(example.event).toUpperCase() },
        valid: false,
        path: ['event'],
      },
      {
        name: `${label}: event null`,
        schema,
        input: { ...example, event: null },
        valid: false,
        path: ['event'],
      },
      ...nullable.map((key): Row => ({
        name: `${label}: ${key} null`,
        schema,
        input: { ...example, [key]: null },
        valid: true,
      })),
      ...required.map((key): Row => ({
        name: `${label}: ${key} missing`,
        schema,
        input: without(example, key),
        valid: false,
        path: [key],
      })),
      ...required
        .filter((key) => !nullable.includes(key))
        .map((key): Row => ({
          name: `${label}: ${key} null`,
          schema,
          input: { ...example, [key]: null },
          valid: false,
          path: [key],
        })),
      {
        name: `${label}: user_id a number`,
        schema,
        input: { ...example, user_id: 42 },
        valid: false,
        path: ['user_id'],
      },
    ],
  );
  const specific: Row[] = [
    {
      name: 'AvatarReadyEvent: failed with no session and no user',
      schema: AvatarReadyEvent,
      input: { ...avatarReady, status: 'failed', session_id: null, user_id: null },
      valid: true,
    },
    {
      name: 'AvatarReadyEvent: session_id not a uuid',
      schema: AvatarReadyEvent,
      input: { ...avatarReady, session_id: 'session-1' },
      valid: false,
      path: ['session_id'],
    },
    {
      name: 'ExportReadyEvent: failed with export_url null',
      schema: ExportReadyEvent,
      input: { ...exportReady, status: 'failed', export_url: null },
      valid: true,
    },
    {
      name: 'ExportReadyEvent: export_url a number',
      schema: ExportReadyEvent,
      input: { ...exportReady, export_url: 1 },
      valid: false,
      path: ['export_url'],
    },
    {
      name: 'RenderReadyEvent: failed with render_url null',
      schema: RenderReadyEvent,
      input: { ...renderReady, status: 'failed', render_url: null },
      valid: true,
    },
    {
      name: 'RenderReadyEvent: render_url an object',
      schema: RenderReadyEvent,
      input: { ...renderReady, render_url: { href: 'https://x' } },
      valid: false,
      path: ['render_url'],
    },
  ];
  it.each([...rows, ...specific])('$name', check);
});

describe('WebhookEvent: told apart by event', () => {
  it.each(tables)('$label parses to itself, every field kept', ({ example }) => {
    const result = WebhookEvent.safeParse(example);
    expect(result.error?.issues ?? []).toEqual([]);
    expect(result.data).toStrictEqual(example);
  });

  const rows: Row[] = [
    ...['avatar.created', 'AVATAR.READY', 'avatar_ready', 'ready', ''].map((event): Row => ({
      name: `unknown event name '${event}'`,
      schema: WebhookEvent,
      input: { ...avatarReady, event },
      valid: false,
      path: ['event'],
    })),
    {
      name: 'event null',
      schema: WebhookEvent,
      input: { ...avatarReady, event: null },
      valid: false,
      path: ['event'],
    },
    {
      // Stricter than the single-event schemas: see the report on spec part 6.
      name: 'event missing',
      schema: WebhookEvent,
      input: without(avatarReady, 'event'),
      valid: false,
      path: ['event'],
    },
    {
      name: 'avatar.ready body labelled export.ready lacks export_url',
      schema: WebhookEvent,
      input: { ...avatarReady, event: 'export.ready' },
      valid: false,
      path: ['export_url'],
    },
    {
      name: 'export.ready body labelled render.ready lacks id',
      schema: WebhookEvent,
      input: { ...exportReady, event: 'render.ready' },
      valid: false,
      path: ['id'],
    },
    {
      name: 'render.ready body labelled avatar.ready lacks session_id',
      schema: WebhookEvent,
      input: { ...renderReady, event: 'avatar.ready' },
      valid: false,
      path: ['session_id'],
    },
    {
      name: 'render.ready with status pending',
      schema: WebhookEvent,
      input: { ...renderReady, status: 'pending' },
      valid: false,
      path: ['status'],
    },
    {
      name: 'export.ready with status failed and no url',
      schema: WebhookEvent,
      input: { ...exportReady, status: 'failed', export_url: null },
      valid: true,
    },
    { name: 'not an object', schema: WebhookEvent, input: 'avatar.ready', valid: false, path: [] },
  ];
  it.each(rows)('$name', check);
});
