import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { EventName, WebhookEvent, WebhookMessageLog } from '../../shared/api/index.js';
import { nextDelay } from './retry-schedule.js';

export interface DueDelivery {
  id: number;
  message_id: string;
  project_id: string;
  url: string;
  payload: string;
}

export type AttemptOutcome =
  { statusCode: number; durationMs: number } | { error: string; durationMs: number };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The durable webhook outbox. Events are written in the same transaction as
 * the state change they report, so a crash can never keep one and lose the
 * other; the dispatcher then works through the deliveries.
 */
export function webhookOutbox(db: Db, now: () => number) {
  const insertMessage = db.prepare(
    'INSERT INTO webhook_messages (id, project_id, event, payload, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const subscribed = db.prepare<[string], { id: number; url: string; events: string }>(
    'SELECT id, url, events FROM webhook_endpoints WHERE project_id = ? AND enabled = 1 ORDER BY id',
  );
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (message_id, endpoint_id, url, status, attempts, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)`,
  );
  // At most `perUrl` per endpoint URL, so a backlog to one endpoint does not fill the batch.
  const due = db.prepare<[number, number, number], DueDelivery>(
    `SELECT id, message_id, project_id, url, payload FROM (
       SELECT d.id, d.message_id, m.project_id, d.url, m.payload, d.next_attempt_at,
         ROW_NUMBER() OVER (PARTITION BY d.url ORDER BY d.next_attempt_at, d.id) AS nth
       FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ?)
     WHERE nth <= ? ORDER BY next_attempt_at, id LIMIT ?`,
  );
  const insertAttempt = db.prepare(
    'INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?)',
  );
  const deliveryRow = db.prepare<
    [number],
    { attempts: number; endpoint_id: number | null; url: string; status: string }
  >('SELECT attempts, endpoint_id, url, status FROM webhook_deliveries WHERE id = ?');
  const updateDelivery = db.prepare(
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status_code = ?,
       last_error = ?, updated_at = ? WHERE id = ?`,
  );

  const createDeliveries = (projectId: string, messageId: string, event: EventName): number => {
    const t = now();
    let count = 0;
    for (const endpoint of subscribed.all(projectId)) {
      if (!(JSON.parse(endpoint.events) as string[]).includes(event)) continue;
      insertDelivery.run(messageId, endpoint.id, endpoint.url, t, t, t);
      count++;
    }
    return count;
  };

  const record = db.transaction(
    (
      deliveryId: number,
      outcome: AttemptOutcome,
      delays: readonly number[],
      random: () => number,
    ) => {
      const row = deliveryRow.get(deliveryId);
      if (!row || row.status !== 'pending') return;
      const t = now();
      const statusCode = 'statusCode' in outcome ? outcome.statusCode : null;
      const error = 'error' in outcome ? outcome.error : null;
      insertAttempt.run(deliveryId, t, statusCode, error, Math.round(outcome.durationMs));
      const attempts = row.attempts + 1;
      if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
        updateDelivery.run('delivered', attempts, null, statusCode, null, t, deliveryId);
        // The receiver is back: what waits for it need not wait for its own backoff.
        db.prepare(
          `UPDATE webhook_deliveries SET next_attempt_at = ? WHERE url = ? AND status = 'pending' AND next_attempt_at > ?`,
        ).run(t, row.url, t);
        return;
      }
      if (statusCode === 410) {
        updateDelivery.run(
          'endpoint_disabled',
          attempts,
          null,
          statusCode,
          'receiver answered 410 Gone',
          t,
          deliveryId,
        );
        if (row.endpoint_id !== null) {
          db.prepare('UPDATE webhook_endpoints SET enabled = 0 WHERE id = ?').run(row.endpoint_id);
          db.prepare(
            `UPDATE webhook_deliveries SET status = 'endpoint_disabled', next_attempt_at = NULL, updated_at = ?
           WHERE endpoint_id = ? AND status = 'pending'`,
          ).run(t, row.endpoint_id);
        }
        return;
      }
      const delay = nextDelay(delays, attempts, random);
      const reason = error ?? `receiver answered ${statusCode}`;
      if (delay === undefined)
        updateDelivery.run('failed', attempts, null, statusCode, reason, t, deliveryId);
      else updateDelivery.run('pending', attempts, t + delay, statusCode, reason, t, deliveryId);
    },
  );

  const replay = db.transaction((projectId: string | null, messageId: string) => {
    const message = db
      .prepare<[string], { project_id: string; event: EventName }>(
        'SELECT project_id, event FROM webhook_messages WHERE id = ?',
      )
      .get(messageId);
    if (!message || (projectId !== null && message.project_id !== projectId)) return undefined;
    return createDeliveries(message.project_id, messageId, message.event);
  });

  return {
    /** Call inside the transaction that makes the change the event reports. */
    enqueue(projectId: string, event: WebhookEvent): string {
      const id = `msg_${randomBytes(16).toString('hex')}`;
      insertMessage.run(id, projectId, event.event, JSON.stringify(event), now());
      createDeliveries(projectId, id, event.event);
      return id;
    },
    /** The oldest due deliveries, at most `perUrl` for each endpoint URL. */
    due: (limit: number, perUrl = limit): DueDelivery[] => due.all(now(), perUrl, limit),
    /** When the earliest pending delivery comes due, if any is pending. */
    nextDueAt: (): number | undefined =>
      db
        .prepare<[], { at: number | null }>(
          `SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'`,
        )
        .get()?.at ?? undefined,
    record: (
      deliveryId: number,
      outcome: AttemptOutcome,
      delays: readonly number[],
      random: () => number = Math.random,
    ) => record.immediate(deliveryId, outcome, delays, random),
    /** Sends a message again to the endpoints now subscribed to it, under the same webhook-id. */
    replay: (projectId: string | null, messageId: string) => replay.immediate(projectId, messageId),

    log(
      projectId: string | null,
      options: { limit: number; event?: EventName; id?: string },
    ): WebhookMessageLog[] {
      const messages = db
        .prepare<
          [{ project: string | null; event: string | null; id: string | null; limit: number }],
          { id: string; event: string; payload: string; created_at: number }
        >(
          `SELECT id, event, payload, created_at FROM webhook_messages
           WHERE (@project IS NULL OR project_id = @project) AND (@event IS NULL OR event = @event)
             AND (@id IS NULL OR id = @id)
           ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
        )
        .all({
          project: projectId,
          event: options.event ?? null,
          id: options.id ?? null,
          limit: options.limit,
        });
      const deliveries = db.prepare<
        [string],
        {
          id: number;
          url: string;
          status: WebhookMessageLog['deliveries'][number]['status'];
          next_attempt_at: number | null;
        }
      >(
        'SELECT id, url, status, next_attempt_at FROM webhook_deliveries WHERE message_id = ? ORDER BY id',
      );
      const attempts = db.prepare<
        [number],
        {
          attempted_at: number;
          status_code: number | null;
          error: string | null;
          duration_ms: number;
        }
      >(
        'SELECT attempted_at, status_code, error, duration_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY id',
      );
      return messages.map((m) => ({
        id: m.id,
        event: m.event,
        created_at: iso(m.created_at)!,
        payload: JSON.parse(m.payload) as Record<string, unknown>,
        deliveries: deliveries.all(m.id).map((d) => ({
          id: d.id,
          url: d.url,
          status: d.status,
          next_attempt_at: d.status === 'pending' ? iso(d.next_attempt_at) : null,
          attempts: attempts.all(d.id).map((a) => ({ ...a, attempted_at: iso(a.attempted_at)! })),
        })),
      }));
    },
  };
}

export type WebhookOutbox = ReturnType<typeof webhookOutbox>;
