import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Project, ProjectRepo } from '../projects/project-repo.js';
import { authenticate } from './authenticate.js';
import { HttpError } from './http-error.js';

/** A repository whose cache version and projects the test moves by hand. */
function fakeProjects() {
  const state = {
    version: 'v1' as string | undefined,
    lookups: 0,
    projects: new Map<string, Project>([
      ['tok-a', project('a', 'paid')],
      ['tok-b', project('b', 'paid')],
    ]),
  };
  const repo = {
    cacheVersion: () => state.version,
    findByToken(token: string) {
      state.lookups++;
      return state.projects.get(token);
    },
  } as unknown as ProjectRepo;
  return { state, repo };
}

function project(id: string, plan: Project['plan']): Project {
  return { id, name: id, token: `tok-${id}`, webhook_secret: 'whsec_x', plan, is_default: false };
}

const socket = () => ({}) as IncomingMessage['socket'];
const request = (s: IncomingMessage['socket'], authorization?: string) =>
  ({ socket: s, headers: authorization ? { authorization } : {} }) as IncomingMessage;
const statusOf = (fn: () => unknown) => {
  try {
    fn();
    return 200;
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
};

describe('authenticate on a keep-alive connection', () => {
  it('looks a repeated header up once while the cache version holds', () => {
    const { state, repo } = fakeProjects();
    const s = socket();
    expect(authenticate(request(s, 'Bearer tok-a'), repo).id).toBe('a');
    expect(authenticate(request(s, 'Bearer tok-a'), repo).id).toBe('a');
    expect(state.lookups).toBe(1);
  });

  it('looks again after any write (a new version), so a plan change counts at once', () => {
    const { state, repo } = fakeProjects();
    const s = socket();
    authenticate(request(s, 'Bearer tok-a'), repo);
    state.projects.set('tok-a', project('a', 'free'));
    state.version = 'v2';
    expect(statusOf(() => authenticate(request(s, 'Bearer tok-a'), repo))).toBe(403);
  });

  it('remembers nothing while the cache is not trusted', () => {
    const { state, repo } = fakeProjects();
    state.version = undefined;
    const s = socket();
    authenticate(request(s, 'Bearer tok-a'), repo);
    authenticate(request(s, 'Bearer tok-a'), repo);
    expect(state.lookups).toBe(2);
  });

  it('checks every other header in full, and a failure leaves nothing behind', () => {
    const { state, repo } = fakeProjects();
    const s = socket();
    authenticate(request(s, 'Bearer tok-a'), repo);
    expect(statusOf(() => authenticate(request(s, 'Bearer tok-wrong'), repo))).toBe(401);
    expect(statusOf(() => authenticate(request(s), repo))).toBe(401);
    expect(statusOf(() => authenticate(request(s, 'Basic tok-a'), repo))).toBe(401);
    expect(authenticate(request(s, 'Bearer tok-b'), repo).id).toBe('b');
    expect(authenticate(request(s, 'Bearer tok-a'), repo).id).toBe('a');
    expect(state.lookups).toBe(4);
  });

  it('never lends one connection’s answer to another', () => {
    const { state, repo } = fakeProjects();
    authenticate(request(socket(), 'Bearer tok-a'), repo);
    authenticate(request(socket(), 'Bearer tok-a'), repo);
    expect(state.lookups).toBe(2);
  });
});
