import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/service.js';
import {
  killService,
  runCli,
  spawnService,
  waitUntilDown,
  type ServiceProcess,
} from '../helpers/cli.js';
import { personPhotos, upload } from '../helpers/upload.js';
import { eventually, eventuallyAsync, startReceiver } from '../helpers/receiver.js';

const running: ServiceProcess[] = [];
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'avatar-cli-test-'));
  dirs.push(dir);
  return dir;
};
const start = async (args: string[]) => {
  const s = await spawnService(args);
  running.push(s);
  return s;
};
afterEach(async () => {
  for (const s of running.splice(0)) {
    killService(s, 'SIGKILL');
    await s.exited;
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const api = (
  s: ServiceProcess,
  method: string,
  p: string,
  body?: unknown,
  token = s.ready.project.token,
) => call(s.ready.base_url, method, p, { body, token });

describe('npm run service -- start', () => {
  it('prints exactly one JSON ready line naming the default project, the same one on every start', async () => {
    const dataDir = tempDir();
    const first = await start(['--port', '0', '--data-dir', dataDir]);
    expect(first.ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await api(first, 'POST', '/api/v1/users/new')).status).toBe(200);
    // Callers signal the process they started, which is npm; the service must go with it.
    first.child.kill('SIGTERM');
    await first.exited;
    expect(await waitUntilDown(first.ready.base_url)).toBe(true);
    expect(first.stdout).toHaveLength(1);

    const second = await start(['--port', '0', '--data-dir', dataDir]);
    expect(second.ready.project).toEqual(first.ready.project);
  });

  it('loses nothing to kill -9: users, avatars, uploads and customizations survive', async () => {
    const dataDir = tempDir();
    const s1 = await start(['--port', '0', '--data-dir', dataDir]);
    const user = ((await api(s1, 'POST', '/api/v1/users/new')).body as { id: string }).id;
    const a = (await api(s1, 'POST', '/api/v1/avatars/new', { user_id: user })).body as {
      avatar_id: string;
      upload_url: string;
    };
    const b = (await api(s1, 'POST', '/api/v1/avatars/new', { user_id: user })).body as {
      avatar_id: string;
      upload_url: string;
    };
    expect((await upload(a.upload_url, personPhotos('person-a'))).status).toBe(200);
    const custom = { assets: {}, body: 'body_4', eye_texture: 'blue', metadata: { k: 'v' } };
    expect(
      (await api(s1, 'PUT', `/api/v1/avatars/${b.avatar_id}/customization`, custom)).status,
    ).toBe(202);
    killService(s1, 'SIGKILL');
    await s1.exited;
    expect(await waitUntilDown(s1.ready.base_url)).toBe(true);

    const s2 = await start(['--port', '0', '--data-dir', dataDir]);
    // Whatever was left in `processing` is processed after the restart.
    await eventuallyAsync(async () => {
      const list = (await api(s2, 'GET', `/api/v1/users/${user}/avatars?include_not_ready=true`))
        .body;
      return (
        JSON.stringify(list) ===
        JSON.stringify([
          { id: a.avatar_id, status: 'ready' },
          { id: b.avatar_id, status: 'pending' },
        ])
      );
    });
    expect(
      (await api(s2, 'GET', `/api/v1/avatars/${b.avatar_id}/customization`)).body,
    ).toMatchObject({
      body: 'body_4',
      eye_texture: 'blue',
      metadata: { k: 'v' },
    });
    // The unused upload URL still works after the restart (its signing key is durable), and only once.
    const rebased = b.upload_url.replace(s1.ready.base_url, s2.ready.base_url);
    expect((await upload(rebased, personPhotos('person-b'))).status).toBe(200);
    expect((await upload(rebased, personPhotos('person-b'))).status).toBe(409);
  });

  it('loses no event to kill -9 during processing and during delivery', async () => {
    const dataDir = tempDir();
    const receiver = await startReceiver('');
    const env = { AVATAR_SERVICE_WEBHOOK_RETRY_DELAYS_MS: '200,200,200,200,200' };
    const args = ['--port', '0', '--data-dir', dataDir, '--webhook-url', receiver.url];
    try {
      receiver.setMode('hang');
      // 1. Killed right after the upload, while the photos wait for (or are in) analysis.
      const s1 = await spawnService(args, env);
      running.push(s1);
      receiver.setSecret(s1.ready.project.webhook_secret);
      const user = ((await api(s1, 'POST', '/api/v1/users/new')).body as { id: string }).id;
      const a = (await api(s1, 'POST', '/api/v1/avatars/new', { user_id: user })).body as {
        avatar_id: string;
        upload_url: string;
      };
      expect((await upload(a.upload_url, personPhotos('person-c'))).status).toBe(200);
      killService(s1, 'SIGKILL');
      await waitUntilDown(s1.ready.base_url);

      // 2. Processed after the restart; killed again while the event is on its way.
      const s2 = await spawnService(args, env);
      running.push(s2);
      await eventually(() => receiver.hits() >= 1, 60_000);
      killService(s2, 'SIGKILL');
      await waitUntilDown(s2.ready.base_url);

      // 3. The receiver is back: the event arrives, signed, exactly once.
      receiver.setMode('ok');
      const s3 = await spawnService(args, env);
      running.push(s3);
      await eventually(() => receiver.received.length >= 1, 30_000);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]).toMatchObject({
        verified: true,
        body: { event: 'avatar.ready', avatar_id: a.avatar_id, status: 'ready', session_id: null },
      });
      const log = (await api(s3, 'GET', '/local/v1/webhooks/messages')).body as {
        deliveries: { status: string; attempts: unknown[] }[];
      }[];
      expect(log).toHaveLength(1);
      expect(log[0]!.deliveries[0]!.status).toBe('delivered');
    } finally {
      await receiver.close();
    }
  });

  it('finishes exports and renders that kill -9 interrupted', async () => {
    const dataDir = tempDir();
    const receiver = await startReceiver('');
    const args = ['--port', '0', '--data-dir', dataDir, '--webhook-url', receiver.url];
    try {
      const s1 = await start(args);
      receiver.setSecret(s1.ready.project.webhook_secret);
      const user = ((await api(s1, 'POST', '/api/v1/users/new')).body as { id: string }).id;
      const a = (await api(s1, 'POST', '/api/v1/avatars/new', { user_id: user })).body as {
        avatar_id: string;
        upload_url: string;
      };
      expect((await upload(a.upload_url, personPhotos('person-b'))).status).toBe(200);
      await eventually(() => receiver.received.length >= 1, 60_000);
      const exported = await api(s1, 'POST', `/api/v1/exports/new?avatar_id=${a.avatar_id}`);
      const rendered = await api(
        s1,
        'POST',
        `/api/v1/renders/new?avatar_id=${a.avatar_id}&scene=common/fullbody&format=png`,
      );
      expect(exported.body).toMatchObject({ status: 'pending' });
      killService(s1, 'SIGKILL');
      await waitUntilDown(s1.ready.base_url);

      const s2 = await start(args);
      const events = await eventually(() => {
        const found = receiver.received.filter((r) => r.body.event !== 'avatar.ready');
        return found.length >= 2 ? found : undefined;
      }, 60_000);
      // Compared whole, so a failure shows which event failed and how.
      const seen = events
        .map((e) => ({ event: e.body.event, status: e.body.status, verified: e.verified }))
        .sort((a, b) => String(a.event).localeCompare(String(b.event)));
      const problems = s2
        .stderr()
        .split('\n')
        .filter((line) => /"level":"(warn|error)"/.test(line));
      expect(seen, problems.join('\n')).toEqual([
        { event: 'export.ready', status: 'ready', verified: true },
        { event: 'render.ready', status: 'ready', verified: true },
      ]);
      const render = events.find((e) => e.body.event === 'render.ready')!;
      expect(render.body.id).toBe((rendered.body as { id: string }).id);
      const glb = await fetch(
        String(events.find((e) => e.body.event === 'export.ready')!.body.export_url).replace(
          s1.ready.base_url,
          s2.ready.base_url,
        ),
      );
      expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
    } finally {
      await receiver.close();
    }
  });

  it('shows the delivery log and replays an event from the command line', async () => {
    const dataDir = tempDir();
    const receiver = await startReceiver('');
    try {
      const s = await start(['--port', '0', '--data-dir', dataDir, '--webhook-url', receiver.url]);
      receiver.setSecret(s.ready.project.webhook_secret);
      const user = ((await api(s, 'POST', '/api/v1/users/new')).body as { id: string }).id;
      const a = (await api(s, 'POST', '/api/v1/avatars/new', { user_id: user })).body as {
        upload_url: string;
      };
      await upload(a.upload_url, personPhotos('person-a'));
      await eventually(() => receiver.received.length === 1, 60_000);

      const log = runCli(['webhooks', 'log', '--data-dir', dataDir]);
      expect(log.status).toBe(0);
      const [entry] = log.stdout
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              id: string;
              event: string;
              deliveries: { status: string; url: string; attempts: { status_code: number }[] }[];
            },
        );
      expect(entry).toMatchObject({ event: 'avatar.ready', id: receiver.received[0]!.id });
      expect(entry!.deliveries[0]).toMatchObject({
        status: 'delivered',
        url: receiver.url,
        attempts: [{ status_code: 200 }],
      });

      const replay = runCli(['webhooks', 'replay', '--data-dir', dataDir, '--id', entry!.id]);
      expect(JSON.parse(replay.stdout)).toEqual({ message_id: entry!.id, deliveries: 1 });
      await eventually(() => receiver.received.length === 2, 10_000);
      expect(receiver.received.map((r) => r.id)).toEqual([entry!.id, entry!.id]);
      expect(
        runCli(['webhooks', 'replay', '--data-dir', dataDir, '--id', 'msg_unknown']).status,
      ).toBe(2);
    } finally {
      await receiver.close();
    }
  });

  it('goes down with npm even when npm itself is killed with SIGKILL', async () => {
    const s = await start(['--port', '0', '--data-dir', tempDir()]);
    s.child.kill('SIGKILL');
    expect(await waitUntilDown(s.ready.base_url)).toBe(true);
  });

  it('refuses bad arguments with a usage message and exit code 2', () => {
    for (const args of [
      ['start', '--port', 'eighty'],
      ['start', '--bogus'],
      ['start', '--webhook-url', 'ftp://x'],
      ['start', '--webhook-url', 'http://x/#events=avatar.gone'],
      ['project', 'create', '--name', 'x'],
      ['project', 'create', '--data-dir', '/tmp/x', '--name', 'x', '--plan', 'gold'],
      ['launch'],
    ]) {
      const r = runCli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('Usage:');
      expect(r.stdout).toBe('');
    }
    // Seven process starts one after another: a loaded machine needs more than the default.
  }, 120_000);
});

describe('npm run service -- project', () => {
  it('on one keep-alive connection, a plan change, a wrong token and another token each count at once', async () => {
    const dataDir = tempDir();
    const s = await start(['--port', '0', '--data-dir', dataDir]);
    const other = JSON.parse(
      runCli(['project', 'create', '--data-dir', dataDir, '--name', 'Other']).stdout.trim(),
    ) as { id: string; token: string };
    // One socket for every request: what authentication remembers per connection is exercised.
    const client = new Client(s.ready.base_url, { pipelining: 1 });
    let sockets = 0;
    client.on('connect', () => sockets++);
    const status = async (token: string) => {
      const res = await client.request({
        method: 'GET',
        path: '/local/v1/assets',
        headers: { authorization: `Bearer ${token}` },
      });
      await res.body.dump();
      return res.statusCode;
    };
    try {
      const token = s.ready.project.token;
      // Let the database go quiet (the read cache distrusts it for 1 s after a write), so the
      // connection's answer can be remembered; authenticate.test.ts pins the memo itself.
      await new Promise((r) => setTimeout(r, 2500));
      expect([await status(token), await status(token)]).toEqual([200, 200]);
      expect(await status(token + 'x')).toBe(401);
      expect(await status(other.token)).toBe(200);
      expect(await status(token)).toBe(200);

      const set = (plan: string) =>
        runCli([
          'project',
          'set',
          '--data-dir',
          dataDir,
          '--id',
          s.ready.project.id,
          '--plan',
          plan,
        ]);
      expect(set('free').status).toBe(0);
      expect(await status(token)).toBe(403);
      expect(await status(other.token)).toBe(200);
      expect(set('paid').status).toBe(0);
      expect(await status(token)).toBe(200);
      expect(sockets).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('create, set and list work while the service runs, and take effect at once', async () => {
    const dataDir = tempDir();
    const s = await start([
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--webhook-url',
      'http://127.0.0.1:9/hook',
    ]);

    const created = runCli([
      'project',
      'create',
      '--data-dir',
      dataDir,
      '--name',
      'Kiosk',
      '--webhook-url',
      'http://127.0.0.1:9/a#events=avatar.ready,render.ready',
    ]);
    expect(created.status).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const project = JSON.parse(lines[0]!) as {
      id: string;
      token: string;
      webhook_secret: string;
      plan: string;
      webhooks: { url: string; events: string[] }[];
    };
    expect(project).toMatchObject({
      name: 'Kiosk',
      plan: 'paid',
      webhooks: [
        { url: 'http://127.0.0.1:9/a', events: ['avatar.ready', 'render.ready'], enabled: true },
      ],
    });
    expect(project.webhook_secret).toMatch(/^whsec_/);
    expect((await api(s, 'POST', '/api/v1/users/new', undefined, project.token)).status).toBe(200);

    const downgraded = runCli([
      'project',
      'set',
      '--data-dir',
      dataDir,
      '--id',
      project.id,
      '--plan',
      'free',
    ]);
    expect(downgraded.status).toBe(0);
    expect((await api(s, 'POST', '/api/v1/users/new', undefined, project.token)).status).toBe(403);

    const listed = runCli(['project', 'list', '--data-dir', dataDir]);
    const all = listed.stdout
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            id: string;
            is_default: boolean;
            plan: string;
            webhooks: { url: string; events: string[] }[];
          },
      );
    expect(all).toHaveLength(2);
    expect(all.find((p) => p.is_default)).toMatchObject({
      id: s.ready.project.id,
      webhooks: [
        {
          url: 'http://127.0.0.1:9/hook',
          events: ['avatar.ready', 'export.ready', 'render.ready'],
        },
      ],
    });
    expect(all.find((p) => p.id === project.id)).toMatchObject({ plan: 'free' });

    const cleared = runCli(['project', 'set', '--data-dir', dataDir, '--no-webhooks']);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ id: s.ready.project.id, webhooks: [] });
    expect(runCli(['project', 'set', '--data-dir', dataDir, '--id', 'nope']).status).toBe(2);
  });
});
