import type { IncomingMessage } from 'node:http';
import type { Project, ProjectRepo } from '../projects/project-repo.js';
import { httpError } from './http-error.js';

const CHALLENGE = { 'www-authenticate': 'Bearer' };

/**
 * Resolves the bearer token to its project, as FastAPI's HTTPBearer would:
 * 401 without a usable token, then 403 for a project whose plan has no API
 * access (spec part 5, rule 4). The project is read on every request, so
 * `project set` from the CLI takes effect at once.
 */
export function authenticate(req: IncomingMessage, projects: ProjectRepo): Project {
  const header = req.headers.authorization;
  if (!header) throw httpError(401, 'Not authenticated', CHALLENGE);
  // A keep-alive connection sends the same header request after request. While nothing has
  // been written (same cache version), the project it resolved to last time still holds.
  // The plain string comparison is safe here: it only ever compares a connection's header
  // with that same connection's previous one, which a client already knows.
  const version = projects.cacheVersion();
  const last = lastOnConnection.get(req.socket);
  if (last && version !== undefined && last.version === version && last.header === header)
    return last.project;
  const project = resolve(header, projects);
  if (version !== undefined) lastOnConnection.set(req.socket, { header, version, project });
  return project;
}

const lastOnConnection = new WeakMap<
  IncomingMessage['socket'],
  { header: string; version: string; project: Project }
>();

function resolve(header: string, projects: ProjectRepo): Project {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw httpError(401, 'Invalid authentication credentials', CHALLENGE);
  const project = projects.findByToken(match[1]!);
  if (!project) throw httpError(401, 'Invalid authentication credentials', CHALLENGE);
  if (project.plan !== 'paid') {
    throw httpError(403, 'API access requires a paid plan. Upgrade the project to use the API.');
  }
  return project;
}
