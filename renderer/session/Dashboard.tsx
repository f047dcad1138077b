/**
 * `create_or_edit_existing` with avatars: the user's avatars as cards, each
 * with a render of how it looks now (once the service has made one), its
 * state, and a way to edit it; and a card to create a new one.
 */
import { useEffect, useState } from 'react';
import type { ScanStatus } from '../../shared/api/index.js';
import type { SessionState } from '../../shared/session/contract.js';
import { useSessionPage } from './session-context.js';

const POLL_MS = 1000;

interface Card {
  status: ScanStatus;
  failure: string | null;
  thumbnail: string | null;
}

/** One avatar's card: its status until it is ready, then its thumbnail until one exists. */
function useCard(avatarId: string, initial: ScanStatus): Card {
  const { api } = useSessionPage();
  const [card, setCard] = useState<Card>({ status: initial, failure: null, thumbnail: null });
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const again = () => {
      if (live) timer = setTimeout(() => void step(), POLL_MS);
    };
    const step = async (): Promise<void> => {
      try {
        const avatar = await api.avatar(avatarId);
        if (!live) return;
        if (avatar.status !== 'ready') {
          setCard({ status: avatar.status, failure: avatar.failure_reason, thumbnail: null });
          if (avatar.status !== 'failed') again();
          return;
        }
        const thumbnail = await api.thumbnail(avatarId);
        if (!live) return;
        setCard({ status: 'ready', failure: null, thumbnail: thumbnail.url });
        if (thumbnail.status === 'pending') again();
      } catch {
        // A card without a picture is still usable; the editor reports real failures.
      }
    };
    void step();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [api, avatarId]);
  return card;
}

const STATUS_TEXT: Record<ScanStatus, string> = {
  pending: 'Waiting for photos',
  processing: 'Being made…',
  ready: 'Ready',
  failed: 'Could not be made',
};

function AvatarCard({
  avatarId,
  number,
  initial,
  onEdit,
}: {
  avatarId: string;
  number: number;
  initial: ScanStatus;
  onEdit(): void;
}) {
  const card = useCard(avatarId, initial);
  const name = `Avatar ${number}`;
  return (
    <li className="session-avatar-card" aria-label={name}>
      <div className="session-avatar-thumb">
        {card.thumbnail ? (
          <img src={card.thumbnail} alt={`${name}, as it looks now`} />
        ) : card.status === 'ready' || card.status === 'processing' ? (
          <span className="spinner" role="img" aria-label={`${name}: picture on its way`} />
        ) : null}
      </div>
      <p className="session-avatar-name">{name}</p>
      <p className="muted session-avatar-status" title={card.failure ?? undefined}>
        {STATUS_TEXT[card.status]}
      </p>
      <button
        type="button"
        className="btn"
        disabled={card.status === 'failed' || card.status === 'pending'}
        onClick={onEdit}
      >
        Edit {name.toLowerCase()}
      </button>
    </li>
  );
}

export function Dashboard({
  state,
  onEdit,
  onCreate,
}: {
  state: SessionState;
  onEdit(avatarId: string): void;
  onCreate(): void;
}) {
  const { api } = useSessionPage();
  // The list as the session began, then as it is now (avatars made since, back from the editor).
  const [all, setAll] = useState(state.avatars);
  // Avatars still waiting for their photos (a creation left before the upload) have nothing to show.
  const avatars = all.filter((a) => a.status !== 'pending');
  useEffect(() => {
    let live = true;
    api.state().then(
      (now) => live && setAll(now.avatars),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  return (
    <section className="panel session-dashboard" aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">Your avatars</h1>
      <p className="muted">Choose an avatar to edit, or make a new one from three photos.</p>
      <ul className="session-avatar-grid">
        {avatars.map((avatar, i) => (
          <AvatarCard
            key={avatar.id}
            avatarId={avatar.id}
            number={i + 1}
            initial={avatar.status}
            onEdit={() => onEdit(avatar.id)}
          />
        ))}
        <li className="session-avatar-card session-avatar-new">
          <button type="button" className="btn primary" onClick={onCreate}>
            Create a new avatar
          </button>
        </li>
      </ul>
    </section>
  );
}

/** The dashboard is for users who have an avatar worth opening; the others start creating one. */
export const hasAvatarToShow = (state: SessionState): boolean =>
  state.avatars.some((a) => a.status === 'ready' || a.status === 'processing');
