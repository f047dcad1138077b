import type { BackendContext, HandlerSlice } from '../context.js';
import type { Kiosk } from '../kiosk/kiosk-feature.js';

type KioskCommands =
  | 'kiosk.state'
  | 'kiosk.reset'
  | 'kiosk.visitor.start'
  | 'kiosk.visitor.result'
  | 'kiosk.visitor.finish'
  | 'kiosk.admin.unlock'
  | 'kiosk.admin.get'
  | 'kiosk.admin.update'
  | 'kiosk.admin.leave'
  | 'kiosk.admin.lock';

const ack = { ok: true as const };

/** Kiosk mode: the visitor's flow and the operator's menu (electron/backend/kiosk/). */
export function kioskHandlers(_ctx: BackendContext, kiosk: Kiosk): HandlerSlice<KioskCommands> {
  return {
    'kiosk.state': async () => kiosk.state(),
    'kiosk.reset': async () => {
      await kiosk.reset();
      return ack;
    },
    'kiosk.visitor.start': async ({ language, consentVersion }) =>
      kiosk.startVisitor(language, consentVersion),
    'kiosk.visitor.result': async ({ visitorId }) => kiosk.result(visitorId),
    'kiosk.visitor.finish': async ({ visitorId, reason }) => {
      await kiosk.finish(visitorId, reason);
      return ack;
    },
    'kiosk.admin.unlock': async ({ pin }) => kiosk.unlock(pin),
    'kiosk.admin.get': async ({ session }) => kiosk.adminGet(session),
    'kiosk.admin.update': async ({ session, change, newPin }) =>
      kiosk.adminUpdate(session, change, newPin),
    'kiosk.admin.leave': async ({ session }) => {
      await kiosk.leave(session);
      return ack;
    },
    'kiosk.admin.lock': async ({ session }) => {
      kiosk.lock(session);
      return ack;
    },
  };
}
