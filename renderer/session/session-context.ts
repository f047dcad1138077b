/** What every part of the session page shares: the API, the SDK channel and the request router. */
import { createContext, useContext } from 'react';
import type { SessionState } from '../../shared/session/contract.js';
import type { SessionApi } from './session-api.js';
import type { RequestHandler, SdkChannel } from './sdk-channel.js';
import { Refusal } from './sdk-mapping.js';

export interface SessionPage {
  api: SessionApi;
  state: SessionState;
  /** Null when no SDK host frames the page. */
  channel: SdkChannel | null;
  /** No page buttons: the host drives the page through the SDK. */
  noui: boolean;
  /** The view on screen answers the SDK's requests; null between views. */
  setRequestHandler(handler: RequestHandler | null): void;
}

export const SessionPageContext = createContext<SessionPage | null>(null);

export function useSessionPage(): SessionPage {
  const page = useContext(SessionPageContext);
  if (!page) throw new Error('No session page context.');
  return page;
}

/** Answers requests while no avatar is open (the creation flow, the dashboard). */
export const noAvatarYet: RequestHandler = (eventName) => {
  if (eventName === 'get_avatar_id') return Promise.resolve({ id: null });
  return Promise.reject(
    new Refusal('not_ready', `No avatar is open yet, so ${eventName} cannot be answered.`),
  );
};
