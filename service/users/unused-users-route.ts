import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, parseAll, queryObject } from '../http/parse-input.js';
import { UnusedUsersQuery, type UnusedUserList } from '../../shared/api/index.js';

/** At most this many are listed: the answer is for recovering a few lost creations. */
const LIMIT = 1000;

/**
 * Local extension: users with no avatar. A client killed between sending
 * POST /users/new and recording its answer finds the user it made here and
 * adopts it instead of making another (the spec has no way to list users).
 */
export function registerUnusedUsersRoute(router: Router, ctx: ServiceContext): void {
  const unused = ctx.db.prepare<[string, number, number], { id: string; created_at: number }>(
    `SELECT u.id, u.created_at FROM users u
     WHERE u.project_id = ? AND u.created_at >= ?
       AND NOT EXISTS (SELECT 1 FROM avatars a WHERE a.user_id = u.id)
     ORDER BY u.created_at, u.id LIMIT ?`,
  );
  router.add('GET', '/local/v1/users/unused', ({ req, query: search }) => {
    const project = authenticate(req, ctx.projects);
    const { query } = parseAll({ query: check(UnusedUsersQuery, queryObject(search), 'query') });
    const from = query.created_from ? Date.parse(query.created_from) : 0;
    const body: UnusedUserList = unused
      .all(project.id, from, LIMIT)
      .map((u) => ({ id: u.id, created_at: new Date(u.created_at).toISOString() }));
    return [200, body];
  });
}
