import type { BackendContext, HandlerSlice } from '../context.js';
import { requirePerson } from '../lookups.js';
import { StudioFailure } from '../studio-failure.js';

/** A person is a service user with a name; deleting one deletes the user upstream too. */
export function peopleHandlers(
  ctx: BackendContext,
): HandlerSlice<'people.list' | 'people.create' | 'people.delete'> {
  const { records, link } = ctx;
  return {
    'people.list': async () => records.people(link.baseUrl()),
    'people.create': async ({ name }) => {
      const user = await link.api().createUser();
      const person = records.addPerson(name, user.id, link.baseUrl());
      ctx.emit({ type: 'people.changed' });
      return person;
    },
    'people.delete': async ({ personId }) => {
      const person = requirePerson(records, personId);
      await ignoreNotFound(link.api().deleteUser(person.userId));
      records.removePerson(personId);
      ctx.library.removePerson(personId);
      ctx.emit({ type: 'people.changed' });
      return { ok: true as const };
    },
  };
}

/** Already gone on the service: the local copy still goes. */
export async function ignoreNotFound(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof StudioFailure && error.kind === 'not_found')) throw error;
  }
}
