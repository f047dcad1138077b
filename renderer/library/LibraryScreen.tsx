import { useState } from 'react';
import type { AvatarSummary, Person } from '../../shared/studio/index.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { call, errorMessage, useApp } from '../store.js';
import { useFileUrl } from './useFileUrl.js';
import { usePeopleGroups } from '../batch/library-groups.js';

const STATUS_LABEL: Record<AvatarSummary['status'], string> = {
  pending: 'Waiting',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Failed',
};

function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

type PendingDelete =
  { kind: 'avatar'; avatar: AvatarSummary; person: Person } | { kind: 'person'; person: Person };

function AvatarCard({
  avatar,
  person,
  index,
  onDelete,
}: {
  avatar: AvatarSummary;
  person: Person;
  index: number;
  onDelete: () => void;
}) {
  const openEditor = useApp((s) => s.openEditor);
  const { url } = useFileUrl(avatar.thumbnail?.id ?? null);
  const name = `${person.name}, avatar ${index + 1}`;
  return (
    <li className="avatar-card">
      <div className="avatar-thumb">
        {url ? (
          <img src={url} alt={`Render of ${name}`} />
        ) : (
          <div className="avatar-thumb-empty" aria-hidden="true">
            <span className="silhouette" />
          </div>
        )}
        <span className={`badge ${avatar.status}`}>{STATUS_LABEL[avatar.status]}</span>
      </div>
      <div className="avatar-meta">
        <p className="avatar-title">Avatar {index + 1}</p>
        <p className="muted small">{formatDate(avatar.createdAt)}</p>
        {avatar.failure ? <p className="failure-reason small">{avatar.failure.reason}</p> : null}
      </div>
      <div className="avatar-actions">
        <button
          type="button"
          className="btn small primary"
          disabled={avatar.status !== 'ready'}
          aria-label={`Open ${name} in editor`}
          onClick={() => openEditor(avatar.id)}
        >
          Open
        </button>
        <button
          type="button"
          className="btn small ghost"
          aria-label={`Delete ${name}`}
          onClick={onDelete}
        >
          Delete
        </button>
      </div>
    </li>
  );
}

export function LibraryScreen() {
  const people = useApp((s) => s.people);
  const groups = usePeopleGroups(people);
  const loaded = useApp((s) => s.peopleLoaded);
  const peopleError = useApp((s) => s.peopleError);
  const loadPeople = useApp((s) => s.loadPeople);
  const setScreen = useApp((s) => s.setScreen);
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [folder, setFolder] = useState<{ path: string; revealed: boolean } | null>(null);
  const [folderError, setFolderError] = useState<string | null>(null);

  const confirmDelete = async () => {
    if (!pending) return;
    setBusy(true);
    setDeleteError(null);
    try {
      if (pending.kind === 'avatar') await call('avatars.delete', { avatarId: pending.avatar.id });
      else await call('people.delete', { personId: pending.person.id });
      setPending(null);
      await loadPeople();
    } catch (error) {
      setDeleteError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const openFolder = async () => {
    setFolderError(null);
    try {
      setFolder(await call('library.open', {}));
    } catch (error) {
      setFolderError(errorMessage(error));
    }
  };

  return (
    <div className="screen library-screen">
      <div className="screen-head">
        <div>
          <h1>Library</h1>
          <p className="muted">People and their avatars, with everything saved for them.</p>
        </div>
        <button type="button" className="btn" onClick={() => void openFolder()}>
          Open library folder
        </button>
      </div>
      <div className="folder-line" aria-live="polite">
        {folder && !folder.revealed ? (
          <p>
            The library is in <code>{folder.path}</code>
          </p>
        ) : folder ? (
          <p>Opened {folder.path} in the file manager.</p>
        ) : null}
        {folderError ? <p className="error">{folderError}</p> : null}
      </div>
      {peopleError ? (
        <p className="error" role="alert">
          The library could not be loaded: {peopleError}
        </p>
      ) : null}
      {!loaded ? <p className="muted">Loading…</p> : null}
      {loaded && people.length === 0 && !peopleError ? (
        <div className="panel empty">
          <h2>No avatars yet</h2>
          <p className="muted">Create the first one on the Capture screen.</p>
          <button type="button" className="btn primary" onClick={() => setScreen('capture')}>
            Create one now
          </button>
        </div>
      ) : null}
      {groups.map((group) => (
        <section key={group.key} aria-label={group.label ? `Batch ${group.label}` : 'People'}>
          {group.label ? <h2 className="batch-group">Batch: {group.label}</h2> : null}
          <ul className="people">
            {group.people.map((person) => (
              <li key={person.id} className="panel person">
                <div className="person-head">
                  <div>
                    <h2>{person.name}</h2>
                    <p className="muted small">
                      {person.avatars.length === 1
                        ? '1 avatar'
                        : `${person.avatars.length} avatars`}{' '}
                      · since {formatDate(person.createdAt)}
                    </p>
                  </div>
                  <button
                    type="button"
                    className="btn small ghost danger-text"
                    aria-label={`Delete ${person.name}`}
                    onClick={() => {
                      setDeleteError(null);
                      setPending({ kind: 'person', person });
                    }}
                  >
                    Delete person
                  </button>
                </div>
                {person.avatars.length === 0 ? (
                  <p className="muted">No avatars for this person yet.</p>
                ) : (
                  <ul className="avatar-grid">
                    {person.avatars.map((avatar, i) => (
                      <AvatarCard
                        key={avatar.id}
                        avatar={avatar}
                        person={person}
                        index={i}
                        onDelete={() => {
                          setDeleteError(null);
                          setPending({ kind: 'avatar', avatar, person });
                        }}
                      />
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
      <ConfirmDialog
        open={pending !== null}
        title={
          pending?.kind === 'person' ? `Delete ${pending.person.name}?` : 'Delete this avatar?'
        }
        confirmLabel={pending?.kind === 'person' ? 'Delete person' : 'Delete avatar'}
        busy={busy}
        error={deleteError}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirmDelete()}
      >
        {pending?.kind === 'person' ? (
          <p>
            This deletes {pending.person.name}, all their avatars and saved files from this library,
            and their data on the avatar service too. It cannot be undone.
          </p>
        ) : (
          <p>
            This deletes the avatar and its saved exports and renders from this library, and its
            data on the avatar service too. It cannot be undone.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
