import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../../service/index.js';
import type { KioskLanguage, KioskSettings } from '../../../shared/studio/index.js';
import type { ApiClient } from '../api/api-client.js';
import { ignoreNotFound } from '../handlers/people.js';
import type { Library } from '../library.js';
import { StudioFailure } from '../studio-failure.js';
import type { StudioRecords } from '../studio-records.js';
import type { KioskRecords } from './kiosk-records.js';

export interface VisitorLifecycleOptions {
  kiosk: KioskRecords;
  records: StudioRecords;
  library: Library;
  api(): ApiClient;
  baseUrl(): string;
  settings(): KioskSettings;
  log: Logger;
  now?: () => Date;
}

export type FinishReason = 'done' | 'idle' | 'abandoned';

/**
 * A visitor from consent to deletion. Each visitor is a new service user
 * (so their avatar list starts empty) and a studio person. When they
 * leave, one transaction queues the deletion and revokes their links; the
 * queue then deletes the service user, the studio's rows and the files.
 * The queue is in the database, so a crash at any point is finished at
 * the next start.
 */
export function visitorLifecycle(options: VisitorLifecycleOptions) {
  const { kiosk, records, library, log } = options;
  const now = options.now ?? (() => new Date());
  let draining: Promise<void> | null = null;

  async function start(language: KioskLanguage, consentVersion: number) {
    const settings = options.settings();
    if (settings.boothClosed) throw new StudioFailure('conflict', 'The booth is closed.');
    if (consentVersion !== settings.consent.version)
      throw new StudioFailure('conflict', 'The consent text has changed; please read it again.');
    if (!settings.languages.includes(language))
      throw new StudioFailure('bad_input', 'This language is not offered here.');
    // One booth, one visitor: whoever was here before is gone.
    await abandonActive();
    const user = await options.api().createUser();
    const id = randomUUID();
    const person = records.addPerson(`Visitor ${id.slice(0, 8)}`, user.id, options.baseUrl());
    kiosk.addVisitor({
      id,
      personId: person.id,
      userId: user.id,
      language,
      consentVersion,
      at: now().toISOString(),
    });
    log.info('kiosk visitor started', { visitor_id: id, consent_version: consentVersion });
    return { visitorId: id, personId: person.id };
  }

  function requireActive(visitorId: string) {
    const visitor = kiosk.visitor(visitorId);
    if (!visitor || visitor.state !== 'active')
      throw new StudioFailure('not_found', 'This visit has ended.');
    return visitor;
  }

  /** Queues the visitor's deletion as the retention says; abandoned visits go at once. */
  async function finish(visitorId: string, reason: FinishReason): Promise<void> {
    const visitor = kiosk.visitor(visitorId);
    if (!visitor || visitor.state !== 'active') return;
    const retention =
      reason === 'abandoned' ? ({ mode: 'delete' } as const) : options.settings().retention;
    const at = now();
    const dueAt =
      retention.mode === 'keep' ? new Date(at.getTime() + retention.minutes * 60_000) : at;
    const failures = (records.person(visitor.person_id)?.avatars ?? []).filter(
      (a) => a.status === 'failed',
    ).length;
    if (failures > 0) kiosk.bump('failures', failures);
    kiosk.finishVisitor(
      visitorId,
      at.toISOString(),
      dueAt.toISOString(),
      retention.mode === 'copy' ? retention.folder : null,
      retention.mode === 'keep',
    );
    log.info('kiosk visitor finished', {
      visitor_id: visitorId,
      reason,
      retention: retention.mode,
    });
    await drain();
  }

  async function abandonActive(): Promise<void> {
    for (const v of kiosk.activeVisitors()) await finish(v.id, 'abandoned');
  }

  /** Copies the visitor's outputs (never the photos) to the operator's folder. */
  function copyOutputs(personId: string, visitorId: string, folder: string) {
    const target = path.join(folder, visitorId);
    mkdirSync(target, { recursive: true });
    for (const avatar of records.person(personId)?.avatars ?? [])
      for (const file of records.avatarDetail(avatar.id)?.files ?? [])
        copyFileSync(file.path, path.join(target, path.basename(file.path)));
  }

  async function deleteOne(row: ReturnType<KioskRecords['dueDeletions']>[number]) {
    try {
      if (row.copy_to) copyOutputs(row.person_id, row.visitor_id, row.copy_to);
      await ignoreNotFound(options.api().deleteUser(row.user_id));
      records.removePerson(row.person_id);
      library.removePerson(row.person_id);
      kiosk.deletionDone(row.visitor_id);
      log.info('kiosk visitor deleted', { visitor_id: row.visitor_id });
    } catch (error) {
      kiosk.deletionFailed(row.visitor_id, String(error));
      log.warn('kiosk deletion failed; retried later', {
        visitor_id: row.visitor_id,
        error: String(error),
      });
    }
  }

  /** Runs every deletion that is due; one run at a time. */
  function drain(): Promise<void> {
    if (draining) return draining.then(() => drain());
    draining = (async () => {
      for (const row of kiosk.dueDeletions(now().toISOString())) await deleteOne(row);
    })().finally(() => {
      draining = null;
    });
    return draining;
  }

  return {
    start,
    finish,
    abandonActive,
    requireActive,
    drain,
    /** After a crash: visits that were under way are abandoned, and the queue is run. */
    async recover(): Promise<void> {
      await abandonActive();
      await drain();
    },
  };
}
export type VisitorLifecycle = ReturnType<typeof visitorLifecycle>;
