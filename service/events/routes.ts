import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, parseAll, queryObject } from '../http/parse-input.js';
import { httpError } from '../http/http-error.js';
import { WebhookLogQuery, type ReplayResponse } from '../../shared/api/index.js';

/** Local extension: the webhook delivery log of the caller's project, and replays. */
export function registerWebhookLogRoutes(router: Router, ctx: ServiceContext): void {
  router.add('GET', '/local/v1/webhooks/messages', ({ req, query: search }) => {
    const project = authenticate(req, ctx.projects);
    const { query } = parseAll({
      query: check(WebhookLogQuery, queryObject(search), 'query'),
    });
    return [200, ctx.outbox.log(project.id, query)];
  });

  router.add('POST', '/local/v1/webhooks/messages/:message_id/replay', ({ req, params }) => {
    const project = authenticate(req, ctx.projects);
    const id = params.message_id ?? '';
    const deliveries = /^msg_[0-9a-f]{32}$/.test(id)
      ? ctx.outbox.replay(project.id, id)
      : undefined;
    if (deliveries === undefined) throw httpError(404, 'Webhook message not found');
    ctx.dispatcher.nudge();
    const body: ReplayResponse = { message_id: id, deliveries };
    return [202, body];
  });
}
