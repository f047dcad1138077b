import type { ServiceContext } from '../context.js';
import { ok, route } from '../http/route-table.js';
import { UnusedUserList, UnusedUsersQuery } from '../../shared/api/index.js';

/** At most this many are listed: the answer is for recovering a few lost creations. */
const LIMIT = 1000;

/**
 * Local extension: users with no avatar. A client killed between sending
 * POST /users/new and recording its answer finds the user it made here and
 * adopts it instead of making another (the spec has no way to list users).
 */
export const unusedUsersRoutes = [
  route({
    method: 'GET',
    path: '/local/v1/users/unused',
    summary:
      'Users with no avatar yet: a client that lost the answer to POST /users/new adopts its user here',
    local: true,
    auth: 'bearer',
    query: UnusedUsersQuery,
    responses: { '200': ok(UnusedUserList) },
    bind: unusedUsers,
  }),
];

function unusedUsers(ctx: ServiceContext) {
  const unused = ctx.db.prepare<[string, number, number], { id: string; created_at: number }>(
    `SELECT u.id, u.created_at FROM users u
     WHERE u.project_id = ? AND u.created_at >= ?
       AND NOT EXISTS (SELECT 1 FROM avatars a WHERE a.user_id = u.id)
     ORDER BY u.created_at, u.id LIMIT ?`,
  );
  return ({
    project,
    query,
  }: {
    project: { id: string };
    query: { created_from?: string | undefined };
  }): [number, UnusedUserList] => {
    const from = query.created_from ? Date.parse(query.created_from) : 0;
    const body: UnusedUserList = unused
      .all(project.id, from, LIMIT)
      .map((u) => ({ id: u.id, created_at: new Date(u.created_at).toISOString() }));
    return [200, body];
  };
}
