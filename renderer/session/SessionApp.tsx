/**
 * The page behind a session URL. It loads the session, checks who frames it
 * against the project's allowlist, opens the SDK channel, then shows what the
 * session is for: the editor, the creation flow, or the user's avatars.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SessionState } from '../../shared/session/contract.js';
import { EditorPortContext } from '../editor/port.js';
import { errorMessage } from '../lib/request-refused.js';
import { CreateFlow } from './CreateFlow.js';
import { Dashboard, hasAvatarToShow } from './Dashboard.js';
import {
  hostOriginOf,
  openSdkChannel,
  originAllowed,
  type RequestHandler,
  type SdkChannel,
} from './sdk-channel.js';
import { sessionApi, type SessionCredentials } from './session-api.js';
import { noAvatarYet, SessionPageContext, useSessionPage } from './session-context.js';
import { SessionEditor } from './SessionEditor.js';
import { sessionEditorPort } from './session-port.js';

type Gender = 'male' | 'female';
type View =
  | { name: 'waiting'; avatarId: string }
  | { name: 'edit'; avatarId: string; bodyType: Gender | null }
  | { name: 'create' }
  | { name: 'dashboard' };

type Boot =
  | { name: 'loading' }
  | { name: 'refused'; message: string }
  | { name: 'ready'; state: SessionState; channel: SdkChannel | null };

const WAIT_POLL_MS = 1000;

function firstView(state: SessionState): View {
  switch (state.session.type) {
    case 'edit_existing':
      return { name: 'waiting', avatarId: state.session.avatar_id ?? '' };
    case 'create':
      return { name: 'create' };
    case 'create_or_edit_existing':
      return hasAvatarToShow(state) ? { name: 'dashboard' } : { name: 'create' };
  }
}

export function SessionApp({ credentials }: { credentials: SessionCredentials }) {
  const api = useMemo(() => sessionApi(credentials), [credentials]);
  const noui = new URLSearchParams(window.location.search).get('noui') === 'true';
  const [boot, setBoot] = useState<Boot>({ name: 'loading' });
  const handler = useRef<RequestHandler | null>(null);

  useEffect(() => {
    let channel: SdkChannel | null = null;
    let live = true;
    api.state().then(
      (state) => {
        if (!live) return;
        const framed = window.parent !== window;
        const origin = framed ? hostOriginOf(window) : window.location.origin;
        if (framed && (!origin || !originAllowed(origin, state.frame_origins))) {
          setBoot({
            name: 'refused',
            message: `This page may not be embedded on ${origin ?? 'an unknown origin'}. The project allows: ${state.frame_origins.join(', ')}.`,
          });
          return;
        }
        channel = openSdkChannel({
          win: window,
          host: framed ? window.parent : window,
          origin: origin ?? window.location.origin,
          handle: (eventName, data) => (handler.current ?? noAvatarYet)(eventName, data),
        });
        setBoot({ name: 'ready', state, channel });
      },
      (e: unknown) => live && setBoot({ name: 'refused', message: errorMessage(e) }),
    );
    return () => {
      live = false;
      channel?.close();
    };
  }, [api]);

  const setRequestHandler = useCallback((h: RequestHandler | null) => {
    handler.current = h;
  }, []);
  const port = useMemo(() => sessionEditorPort(api), [api]);

  switch (boot.name) {
    case 'loading':
      return <p className="session-message">Loading…</p>;
    case 'refused':
      return (
        <p className="session-message" role="alert">
          {boot.message}
        </p>
      );
    case 'ready':
      return (
        <SessionPageContext
          value={{ api, state: boot.state, channel: boot.channel, noui, setRequestHandler }}
        >
          <EditorPortContext value={port}>
            <SessionViews state={boot.state} />
          </EditorPortContext>
        </SessionPageContext>
      );
  }
}

function SessionViews({ state }: { state: SessionState }) {
  const [view, setView] = useState<View>(() => firstView(state));
  // Only create_or_edit_existing has a dashboard to go back to.
  const withDashboard = state.session.type === 'create_or_edit_existing';
  const onReady = useCallback(
    (avatarId: string, bodyType: Gender) => setView({ name: 'edit', avatarId, bodyType }),
    [],
  );
  switch (view.name) {
    case 'waiting':
      return (
        <WaitForAvatar
          avatarId={view.avatarId}
          onReady={(bodyType) => setView({ ...view, name: 'edit', bodyType })}
        />
      );
    case 'edit':
      return (
        <SessionEditor
          key={view.avatarId}
          avatarId={view.avatarId}
          bodyType={view.bodyType}
          onBack={withDashboard ? () => setView({ name: 'dashboard' }) : undefined}
        />
      );
    case 'create':
      return <CreateFlow onReady={onReady} />;
    case 'dashboard':
      return (
        <Dashboard
          state={state}
          onEdit={(avatarId) => setView({ name: 'waiting', avatarId })}
          onCreate={() => setView({ name: 'create' })}
        />
      );
  }
}

/** edit_existing before the avatar is ready: a progress bar (spec part 1). */
function WaitForAvatar({
  avatarId,
  onReady,
}: {
  avatarId: string;
  onReady(bodyType: Gender | null): void;
}) {
  const page = useSessionPage();
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const check = () =>
      page.api.avatar(avatarId).then(
        (avatar) => {
          if (!live) return;
          if (avatar.status === 'ready') onReady(avatar.body_type);
          else if (avatar.status === 'failed') {
            const message = avatar.failure_reason ?? 'This avatar could not be made.';
            setProblem(message);
            page.channel?.reportError('avatar_load_error', message);
          } else timer = setTimeout(() => void check(), WAIT_POLL_MS);
        },
        (e: unknown) => {
          if (!live) return;
          setProblem(errorMessage(e));
          page.channel?.reportError('avatar_load_error', errorMessage(e));
        },
      );
    let timer: ReturnType<typeof setTimeout> | null = null;
    void check();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [avatarId, page, onReady]);
  if (problem)
    return (
      <p className="session-message" role="alert">
        {problem}
      </p>
    );
  return (
    <div className="session-message">
      <p role="status">Your avatar is being made…</p>
      <progress aria-label="Avatar progress" />
    </div>
  );
}
