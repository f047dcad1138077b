import type { BackendContext, HandlerSlice } from '../context.js';
import { requirePerson } from '../lookups.js';

/** Session URLs for the hosted creator and editor pages. */
export function sessionHandlers(ctx: BackendContext): HandlerSlice<'sessions.open'> {
  return {
    'sessions.open': async ({ personId, config }) => {
      const person = requirePerson(ctx.records, personId);
      const session = await ctx.link.api().createSession(person.userId, config);
      return { id: session.id, url: session.url };
    },
  };
}
