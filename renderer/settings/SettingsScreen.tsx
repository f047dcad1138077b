import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { SettingsUpdate, StudioSettings } from '../../shared/studio/index.js';
import { call, errorMessage, useApp } from '../store.js';

type Message = { kind: 'ok' | 'error'; text: string } | null;

function useSaver() {
  const setSettings = useApp((s) => s.setSettings);
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<StudioSettings | void>, ok: string): Promise<boolean> => {
    setBusy(true);
    setMessage(null);
    try {
      const result = await work();
      if (result) setSettings(result);
      setMessage({ kind: 'ok', text: ok });
      return true;
    } catch (error) {
      setMessage({ kind: 'error', text: errorMessage(error) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { message, busy, run };
}

function Feedback({ message }: { message: Message }) {
  return (
    <p className={`feedback ${message?.kind ?? ''}`} aria-live="polite">
      {message?.text ?? ''}
    </p>
  );
}

function Section({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="panel settings-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {intro ? <p className="muted">{intro}</p> : null}
      {children}
    </section>
  );
}

function formatTime(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

const SERVICE_STATE: Record<string, string> = {
  starting: 'Starting',
  ready: 'Connected',
  unreachable: 'Unreachable',
  unauthorized: 'Token refused',
  no_token: 'No token',
  error: 'Error',
};

function ApiSection({ settings }: { settings: StudioSettings }) {
  const health = useApp((s) => s.health);
  const id = useId();
  const [mode, setMode] = useState(settings.api.mode);
  const [baseUrl, setBaseUrl] = useState(
    settings.api.mode === 'hosted' ? settings.api.baseUrl : '',
  );
  const [token, setToken] = useState('');
  const api = useSaver();
  const tok = useSaver();

  const saveApi = (e: FormEvent) => {
    e.preventDefault();
    const update: SettingsUpdate =
      mode === 'embedded'
        ? { api: { mode: 'embedded' } }
        : { api: { mode: 'hosted', baseUrl: baseUrl.trim() } };
    void api.run(() => call('settings.update', update), 'API settings saved.');
  };
  const saveToken = (e: FormEvent) => {
    e.preventDefault();
    const value = token.trim();
    if (!value) return;
    void tok
      .run(() => call('token.set', { token: value }), 'Token saved in the keychain.')
      .then((saved) => saved && setToken(''));
  };

  const service = health?.service;
  return (
    <Section
      title="API service"
      intro="Where avatars are made: the local service built into the studio, or the hosted API."
    >
      <form onSubmit={saveApi} className="stack">
        <div className="field">
          <span className="field-label" id={`${id}-mode`}>
            API service
          </span>
          <div role="radiogroup" aria-labelledby={`${id}-mode`} className="choice-list">
            <label className="choice">
              <input
                type="radio"
                name={`${id}-mode`}
                checked={mode === 'embedded'}
                onChange={() => setMode('embedded')}
              />
              <span>
                Embedded local service
                <small>Works offline, on this machine. The default.</small>
              </span>
            </label>
            <label className="choice">
              <input
                type="radio"
                name={`${id}-mode`}
                checked={mode === 'hosted'}
                onChange={() => setMode('hosted')}
              />
              <span>
                Hosted service
                <small>The paid cloud API, with a project token.</small>
              </span>
            </label>
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}-url`}>Base URL</label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://api.example.com"
            value={baseUrl}
            disabled={mode !== 'hosted'}
            required={mode === 'hosted'}
            onChange={(e) => setBaseUrl(e.target.value)}
          />
          <small className="muted">Without /api/v1.</small>
        </div>
        <div className="row">
          <button type="submit" className="btn primary" disabled={api.busy}>
            Save service choice
          </button>
        </div>
        <Feedback message={api.message} />
      </form>
      <div className="health-line">
        <span className={`dot ${service?.state ?? 'unknown'}`} aria-hidden="true" />
        <span>
          Service: {service ? (SERVICE_STATE[service.state] ?? service.state) : 'Unknown'}
          {service?.baseUrl ? ` · ${service.baseUrl}` : ''}
        </span>
      </div>
      {service?.message ? <p className="muted small health-message">{service.message}</p> : null}
      <form onSubmit={saveToken} className="stack token-form">
        <p className="token-state">
          <strong>{settings.tokenSet ? 'A token is set' : 'No token'}</strong>
          {settings.tokenSource === 'environment' ? ' (from AVATAR_API_TOKEN)' : ''}
          {settings.tokenSource === 'keychain' ? ' (in the system keychain)' : ''}
        </p>
        <div className="field">
          <label htmlFor={`${id}-token`}>Project token</label>
          <input
            id={`${id}-token`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
          <small className="muted">Stored in the system keychain. It is never shown again.</small>
        </div>
        <div className="row">
          <button type="submit" className="btn primary" disabled={tok.busy || token.trim() === ''}>
            Save token
          </button>
          <button
            type="button"
            className="btn"
            disabled={tok.busy || !settings.tokenSet || settings.tokenSource === 'environment'}
            onClick={() => void tok.run(() => call('token.clear', {}), 'Token removed.')}
          >
            Clear token
          </button>
        </div>
        <Feedback message={tok.message} />
      </form>
    </Section>
  );
}

function ListenerSection({ settings }: { settings: StudioSettings }) {
  const health = useApp((s) => s.health);
  const id = useId();
  const [host, setHost] = useState(settings.listener.host);
  const [port, setPort] = useState(String(settings.listener.port));
  const [secret, setSecret] = useState('');
  const [copied, setCopied] = useState(false);
  const save = useSaver();
  const sec = useSaver();
  const listener = health?.listener;

  const saveListener = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(port);
    void save.run(
      () =>
        call('settings.update', {
          listener: { host: host.trim(), port: Number.isInteger(n) ? n : -1 },
        }),
      'Listener settings saved.',
    );
  };
  const saveSecret = (e: FormEvent) => {
    e.preventDefault();
    const value = secret.trim();
    if (!value) return;
    void sec
      .run(() => call('settings.update', { webhookSecret: value }), 'Webhook secret saved.')
      .then((saved) => saved && setSecret(''));
  };
  const copy = async () => {
    if (!listener?.url) return;
    try {
      await navigator.clipboard.writeText(listener.url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };

  return (
    <Section
      title="Webhook listener"
      intro="The service tells the studio about finished avatars, exports and renders by calling this address."
    >
      <form onSubmit={saveListener} className="stack">
        <div className="row fields">
          <div className="field grow">
            <label htmlFor={`${id}-host`}>Listener host</label>
            <input
              id={`${id}-host`}
              type="text"
              value={host}
              onChange={(e) => setHost(e.target.value)}
              required
            />
          </div>
          <div className="field narrow">
            <label htmlFor={`${id}-port`}>Listener port</label>
            <input
              id={`${id}-port`}
              type="number"
              min={0}
              max={65535}
              value={port}
              onChange={(e) => setPort(e.target.value)}
              required
            />
          </div>
        </div>
        <div className="row">
          <button type="submit" className="btn primary" disabled={save.busy}>
            Save listener
          </button>
        </div>
        <Feedback message={save.message} />
      </form>
      <div className="url-box">
        <p className="field-label">Webhook URL for the developer portal</p>
        <div className="row">
          <code className="url">{listener?.url ?? 'Not listening'}</code>
          <button
            type="button"
            className="btn small"
            disabled={!listener?.url}
            onClick={() => void copy()}
          >
            {copied ? 'Copied' : 'Copy URL'}
          </button>
        </div>
      </div>
      <div className="health-line">
        <span className={`dot ${listener?.state ?? 'unknown'}`} aria-hidden="true" />
        <span>
          Listener:{' '}
          {listener
            ? listener.state === 'listening'
              ? 'Listening'
              : listener.state === 'stopped'
                ? 'Stopped'
                : 'Error'
            : 'Unknown'}
        </span>
      </div>
      {listener?.message ? <p className="muted small health-message">{listener.message}</p> : null}
      <p className="muted">
        {listener?.lastEventAt
          ? `Last event received: ${listener.lastEvent ?? 'event'} at ${formatTime(listener.lastEventAt)}`
          : 'No event received yet.'}
      </p>
      <form onSubmit={saveSecret} className="stack token-form">
        <p className="token-state">
          <strong>
            {settings.webhookSecretSet ? 'A webhook secret is set' : 'No webhook secret'}
          </strong>
          {settings.webhookSecretSet
            ? ' — deliveries are verified.'
            : ' — deliveries are not verified.'}
        </p>
        <div className="field">
          <label htmlFor={`${id}-secret`}>Webhook secret</label>
          <input
            id={`${id}-secret`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="whsec_…"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        </div>
        <div className="row">
          <button type="submit" className="btn primary" disabled={sec.busy || secret.trim() === ''}>
            Save secret
          </button>
          <button
            type="button"
            className="btn"
            disabled={sec.busy || !settings.webhookSecretSet}
            onClick={() =>
              void sec.run(
                () => call('settings.update', { webhookSecret: null }),
                'Webhook secret removed.',
              )
            }
          >
            Clear secret
          </button>
        </div>
        <Feedback message={sec.message} />
      </form>
    </Section>
  );
}

function LibrarySection({ settings }: { settings: StudioSettings }) {
  const id = useId();
  const [dir, setDir] = useState(settings.libraryDir);
  const save = useSaver();
  return (
    <Section
      title="Library folder"
      intro="Where photos, exports and renders are kept on this machine."
    >
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void save.run(
            () => call('settings.update', { libraryDir: dir.trim() }),
            'Library folder saved.',
          );
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-dir`}>Library folder</label>
          <input
            id={`${id}-dir`}
            type="text"
            value={dir}
            spellCheck={false}
            onChange={(e) => setDir(e.target.value)}
            required
          />
        </div>
        <div className="row">
          <button type="submit" className="btn primary" disabled={save.busy}>
            Save folder
          </button>
        </div>
        <Feedback message={save.message} />
      </form>
    </Section>
  );
}

function HostedEditorSection() {
  const people = useApp((s) => s.people);
  const id = useId();
  const [personId, setPersonId] = useState('');
  const [kind, setKind] = useState<'create' | 'edit_existing'>('create');
  const [avatarId, setAvatarId] = useState('');
  const [session, setSession] = useState<{ url: string } | null>(null);
  const open = useSaver();
  const person = people.find((p) => p.id === personId) ?? people[0];
  const readyAvatars = person?.avatars.filter((a) => a.status === 'ready') ?? [];

  const start = (e: FormEvent) => {
    e.preventDefault();
    if (!person) return;
    const config =
      kind === 'create'
        ? ({ type: 'create' } as const)
        : ({ type: 'edit_existing', avatar_id: avatarId || readyAvatars[0]?.id || '' } as const);
    void open.run(async () => {
      const s = await call('sessions.open', { personId: person.id, config });
      setSession(s);
      window.open(s.url, '_blank', 'noopener,noreferrer');
    }, 'Session opened in a new window.');
  };

  return (
    <Section
      title="Hosted editor"
      intro="Open the service's own editor page for a person, in a new window."
    >
      {people.length === 0 ? (
        <p className="muted">Create a person first on the Capture screen.</p>
      ) : (
        <form className="stack" onSubmit={start}>
          <div className="row fields">
            <div className="field grow">
              <label htmlFor={`${id}-person`}>Person for the session</label>
              <select
                id={`${id}-person`}
                value={person?.id ?? ''}
                onChange={(e) => setPersonId(e.target.value)}
              >
                {people.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field grow">
              <label htmlFor={`${id}-kind`}>Session</label>
              <select
                id={`${id}-kind`}
                value={kind}
                onChange={(e) => setKind(e.target.value === 'create' ? 'create' : 'edit_existing')}
              >
                <option value="create">Create a new avatar</option>
                <option value="edit_existing">Edit an existing avatar</option>
              </select>
            </div>
            {kind === 'edit_existing' ? (
              <div className="field grow">
                <label htmlFor={`${id}-avatar`}>Avatar to edit</label>
                <select
                  id={`${id}-avatar`}
                  value={avatarId}
                  onChange={(e) => setAvatarId(e.target.value)}
                >
                  {readyAvatars.map((a, i) => (
                    <option key={a.id} value={a.id}>
                      Avatar {i + 1}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
          </div>
          <div className="row">
            <button
              type="submit"
              className="btn primary"
              disabled={open.busy || (kind === 'edit_existing' && readyAvatars.length === 0)}
            >
              Open hosted editor
            </button>
            {session ? (
              <a className="btn ghost" href={session.url} target="_blank" rel="noopener noreferrer">
                Open the session again
              </a>
            ) : null}
          </div>
          <Feedback message={open.message} />
        </form>
      )}
    </Section>
  );
}

export function SettingsScreen() {
  const settings = useApp((s) => s.settings);
  const loadSettings = useApp((s) => s.loadSettings);
  const loadHealth = useApp((s) => s.loadHealth);
  useEffect(() => {
    void loadSettings();
    void loadHealth();
  }, [loadSettings, loadHealth]);
  return (
    <div className="screen settings-screen">
      <div className="screen-head">
        <div>
          <h1>Settings</h1>
          <p className="muted">Changes apply at once. The token never leaves the back end.</p>
        </div>
      </div>
      {!settings ? (
        <p className="muted" role="status">
          Loading settings…
        </p>
      ) : (
        <div className="settings-grid">
          <ApiSection settings={settings} />
          <ListenerSection settings={settings} />
          <LibrarySection settings={settings} />
          <HostedEditorSection />
        </div>
      )}
    </div>
  );
}
