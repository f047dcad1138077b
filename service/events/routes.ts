import { ok, route } from '../http/route-table.js';
import { httpError } from '../http/http-error.js';
import { ReplayResponse, WebhookLog, WebhookLogQuery } from '../../shared/api/index.js';

/** Local extension: the webhook delivery log of the caller's project, and replays. */
export const webhookLogRoutes = [
  route({
    method: 'GET',
    path: '/local/v1/webhooks/messages',
    summary:
      'The webhook delivery log: each event, its deliveries, attempts, status codes and next retry',
    local: true,
    auth: 'bearer',
    query: WebhookLogQuery,
    responses: { '200': ok(WebhookLog) },
    bind:
      (ctx) =>
      ({ project, query }) => [200, ctx.outbox.log(project.id, query)],
  }),
  route({
    method: 'POST',
    path: '/local/v1/webhooks/messages/{message_id}/replay',
    summary:
      'Send an event again, under the same webhook-id, to the endpoints now subscribed to it',
    local: true,
    auth: 'bearer',
    // Any malformed id is just an unknown message: 404, not 422.
    parameters: [{ name: 'message_id', in: 'path', required: true, schema: { type: 'string' } }],
    responses: {
      '202': { description: 'Queued', schema: ReplayResponse },
      '404': { description: 'Unknown message' },
    },
    bind:
      (ctx) =>
      ({ project, params }) => {
        const id = params.message_id ?? '';
        const deliveries = /^msg_[0-9a-f]{32}$/.test(id)
          ? ctx.outbox.replay(project.id, id)
          : undefined;
        if (deliveries === undefined) throw httpError(404, 'Webhook message not found');
        ctx.dispatcher.nudge();
        const body: ReplayResponse = { message_id: id, deliveries };
        return [202, body];
      },
  }),
];
