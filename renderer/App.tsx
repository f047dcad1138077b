import { Component, lazy, Suspense, useEffect, type ReactNode } from 'react';
import { BatchScreen } from './batch/BatchScreen.js';
import { CaptureScreen } from './capture/CaptureScreen.js';
import { KioskApp } from './kiosk/KioskApp.js';
import { useKioskMode } from './kiosk/useKioskMode.js';
import { LibraryScreen } from './library/LibraryScreen.js';
import { SettingsScreen } from './settings/SettingsScreen.js';
import { useApp, type Screen } from './store.js';

/** three.js and the editor load only when an avatar is opened. */
const Editor = lazy(() => import('./editor/Editor.js').then((m) => ({ default: m.Editor })));

const NAV: { screen: Screen; label: string }[] = [
  { screen: 'capture', label: 'Capture' },
  { screen: 'library', label: 'Library' },
  { screen: 'batch', label: 'Batch' },
  { screen: 'settings', label: 'Settings' },
];

class EditorBoundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  override render() {
    if (this.state.error)
      return (
        <div className="panel" role="alert">
          <h2>The editor could not start</h2>
          <p>{this.state.error}</p>
        </div>
      );
    return this.props.children;
  }
}

function ConnectionBanner() {
  const connection = useApp((s) => s.connection);
  if (connection !== 'reconnecting' && connection !== 'closed') return null;
  return (
    <div className="banner" role="status">
      The connection to the studio dropped. Reconnecting…
    </div>
  );
}

function MissingBridge() {
  return (
    <main className="missing" id="main">
      <div className="panel">
        <h1>Avatar Studio</h1>
        <p>
          This page needs the link that the studio printed when it started (it carries a one-time
          key). Open that link again.
        </p>
      </div>
    </main>
  );
}

export function App() {
  const screen = useApp((s) => s.screen);
  const editorAvatarId = useApp((s) => s.editorAvatarId);
  const setScreen = useApp((s) => s.setScreen);
  const closeEditor = useApp((s) => s.closeEditor);
  const hasBridge = typeof window !== 'undefined' && Boolean(window.studio);
  const kiosk = useKioskMode(hasBridge);

  useEffect(() => {
    if (!window.studio) return;
    const state = useApp.getState();
    const off = window.studio.subscribe((event) => useApp.getState().onEvent(event));
    void state.loadPeople();
    void state.loadSettings();
    void state.loadHealth();
    return off;
  }, []);

  // Each screen starts at its top.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [screen, editorAvatarId]);

  if (!hasBridge) return <MissingBridge />;
  // A booth shows only the kiosk: no studio navigation at all.
  if (kiosk === 'on') return <KioskApp />;
  if (kiosk === 'unknown') return null;

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand" aria-hidden="true">
          <span className="brand-mark" />
          Avatar Studio
        </div>
        <nav aria-label="Main" className="mainnav">
          {NAV.map((item) => (
            <button
              key={item.screen}
              type="button"
              className="navbtn"
              aria-current={screen === item.screen && !editorAvatarId ? 'page' : undefined}
              onClick={() => setScreen(item.screen)}
            >
              {item.label}
            </button>
          ))}
        </nav>
      </header>
      <ConnectionBanner />
      <main id="main" className="content" tabIndex={-1}>
        {editorAvatarId ? (
          <section className="editor-host" aria-label="Avatar editor">
            <div className="editor-bar">
              <button type="button" className="btn ghost" onClick={closeEditor}>
                ← Back to {NAV.find((n) => n.screen === screen)?.label.toLowerCase()}
              </button>
            </div>
            <EditorBoundary>
              <Suspense
                fallback={
                  <div className="editor-loading" role="status">
                    Loading the editor…
                  </div>
                }
              >
                <Editor key={editorAvatarId} avatarId={editorAvatarId} onClose={closeEditor} />
              </Suspense>
            </EditorBoundary>
          </section>
        ) : null}
        <div hidden={editorAvatarId !== null}>
          {screen === 'capture' ? <CaptureScreen /> : null}
          {screen === 'library' ? <LibraryScreen /> : null}
          {screen === 'batch' ? <BatchScreen /> : null}
          {screen === 'settings' ? <SettingsScreen /> : null}
        </div>
      </main>
    </div>
  );
}
