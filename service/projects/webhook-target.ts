import { z } from 'zod';
import { EVENT_NAMES, EventName } from '../../shared/api/index.js';

export interface WebhookTarget {
  url: string;
  events: EventName[];
}

/**
 * A webhook endpoint as written on the command line: a URL, optionally
 * followed by `#events=avatar.ready,export.ready` to choose its events.
 * The fragment is never sent to a server, so it cannot clash with a real
 * part of the URL. Without it, the endpoint receives every event.
 */
export const WebhookTargetArgument = z.string().transform((value, ctx): WebhookTarget => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a URL` });
    return z.NEVER;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `"${value}" must be an http or https URL` });
    return z.NEVER;
  }
  const fragment = /^#events=(.*)$/.exec(url.hash);
  if (url.hash && !fragment) {
    ctx.addIssue({ code: 'custom', message: 'the only fragment allowed is #events=name,name' });
    return z.NEVER;
  }
  const names = fragment ? fragment[1]!.split(',').filter(Boolean) : [...EVENT_NAMES];
  const events = z.array(EventName).min(1).safeParse(names);
  if (!events.success) {
    ctx.addIssue({ code: 'custom', message: `events must be among ${EVENT_NAMES.join(', ')}` });
    return z.NEVER;
  }
  url.hash = '';
  return { url: url.toString(), events: [...new Set(events.data)] };
});
