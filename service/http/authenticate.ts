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
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw httpError(401, 'Invalid authentication credentials', CHALLENGE);
  const project = projects.findByToken(match[1]!);
  if (!project) throw httpError(401, 'Invalid authentication credentials', CHALLENGE);
  if (project.plan !== 'paid') {
    throw httpError(403, 'API access requires a paid plan. Upgrade the project to use the API.');
  }
  return project;
}
