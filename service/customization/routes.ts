import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, jsonBody, parseAll } from '../http/parse-input.js';
import { LIMITS } from '../config.js';
import { sendJsonText } from '../http/respond.js';
import { AvatarCustomization, AvatarIdPathParams } from '../../shared/api/index.js';
import { customizableAvatar, storeCustomization } from './store-customization.js';

export function registerCustomizationRoutes(router: Router, ctx: ServiceContext): void {
  router.add('GET', '/api/v1/avatars/:id/customization', ({ req, res, params }) => {
    const project = authenticate(req, ctx.projects);
    const { path } = parseAll({ path: check(AvatarIdPathParams, params, 'path') });
    const avatar = customizableAvatar(ctx, project.id, path.id);
    // Stored exactly as answered (normalized and validated when written): no parse, no stringify.
    sendJsonText(res, 200, avatar.customization);
  });

  router.add('PUT', '/api/v1/avatars/:id/customization', async ({ req, params }) => {
    const project = authenticate(req, ctx.projects);
    const raw = await jsonBody(req, LIMITS.jsonBodyBytes);
    const { path, body } = parseAll({
      path: check(AvatarIdPathParams, params, 'path'),
      body: raw.ok ? check(AvatarCustomization, raw.data, 'body') : raw,
    });
    const avatar = customizableAvatar(ctx, project.id, path.id);
    return [202, storeCustomization(ctx, project.id, avatar, body)];
  });
}
