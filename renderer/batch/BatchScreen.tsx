import { useCallback, useEffect, useState, type DragEvent, type FormEvent } from 'react';
import type { SceneInfo } from '../../shared/api/index.js';
import type { BatchPreview, BatchView, RenderSpec } from '../../shared/studio/index.js';
import { call, errorMessage } from '../store.js';
import { studio } from '../studio-bridge.js';
import { batchEta, isUnfinished, pathFromDrop, STATE_LABEL } from './batch-view.js';

type BodyChoice = '' | 'male' | 'female';
type Format = RenderSpec['format'];

function PreviewTable({ preview }: { preview: BatchPreview }) {
  const problems = preview.people.filter((p) => p.problem).length;
  return (
    <section className="panel" aria-labelledby="batch-preview-title">
      <h2 id="batch-preview-title">
        {preview.people.length} people found
        {problems ? `, ${problems} with problems` : ', all ready'}
      </h2>
      <table className="batch-table" aria-label="People found">
        <thead>
          <tr>
            <th scope="col">Person</th>
            <th scope="col">Name</th>
            <th scope="col">Body type</th>
            <th scope="col">Photos</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {preview.people.map((p) => (
            <tr key={p.person} data-problem={p.problem ? 'yes' : 'no'}>
              <td>{p.person}</td>
              <td>{p.name}</td>
              <td>{p.bodyType ?? '—'}</td>
              <td>{Object.values(p.photos).join(', ') || '—'}</td>
              <td className={p.problem ? 'batch-problem' : undefined}>
                {p.problem ? `⚠ ${p.problem}` : 'OK'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function RunPanel({ batch, onChange }: { batch: BatchView; onChange(view: BatchView): void }) {
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    // The ETA moves with the clock between events.
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const run = (action: () => Promise<void>) => () => {
    setError(null);
    action().catch((e: unknown) => setError(errorMessage(e)));
  };
  const c = batch.counts;
  const finished = c.succeeded + c.failed + c.invalid;
  const eta = batchEta(batch, now);
  return (
    <section className="panel" aria-labelledby="batch-run-title">
      <h2 id="batch-run-title">
        Batch {batch.label}: <span data-testid="batch-state">{batch.state}</span>
      </h2>
      <progress max={Math.max(1, c.people)} value={finished} aria-label="Batch progress" />
      <p data-testid="batch-counts" aria-live="polite">
        {finished} of {c.people} finished · {c.succeeded} succeeded · {c.failed} failed ·{' '}
        {c.invalid} invalid · {c.inFlight} in flight
        {eta !== null && batch.state === 'running' ? ` · about ${eta} left` : ''}
      </p>
      <div className="row">
        {batch.state === 'running' ? (
          <button
            type="button"
            className="btn"
            onClick={run(async () => onChange(await call('batch.pause', { batchId: batch.id })))}
          >
            Pause
          </button>
        ) : null}
        {batch.state === 'paused' || batch.state === 'cancelled' ? (
          <button
            type="button"
            className="btn primary"
            onClick={run(async () => onChange(await call('batch.resume', { batchId: batch.id })))}
          >
            Resume
          </button>
        ) : null}
        {batch.state === 'running' || batch.state === 'paused' ? (
          <button
            type="button"
            className="btn ghost"
            onClick={run(async () => onChange(await call('batch.cancel', { batchId: batch.id })))}
          >
            Cancel
          </button>
        ) : null}
        <button
          type="button"
          className="btn"
          onClick={run(async () => {
            const opened = await call('batch.openOutput', { batchId: batch.id });
            setNote(opened.revealed ? null : `Output folder: ${opened.path}`);
          })}
        >
          Open output folder
        </button>
        <button
          type="button"
          className="btn"
          onClick={run(async () => {
            const report = await call('batch.exportReport', { batchId: batch.id });
            setNote(`Report written to ${report.path}`);
          })}
        >
          Export report
        </button>
      </div>
      {note ? <p role="status">{note}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <table className="batch-table" aria-label="People in the batch">
        <thead>
          <tr>
            <th scope="col">Person</th>
            <th scope="col">Name</th>
            <th scope="col">State</th>
            <th scope="col">Reason</th>
            <th scope="col">Files</th>
          </tr>
        </thead>
        <tbody>
          {batch.people.map((p) => (
            <tr key={p.person} data-state={p.state}>
              <td>{p.person}</td>
              <td>{p.name}</td>
              <td>{STATE_LABEL[p.state]}</td>
              <td className={p.reason ? 'batch-problem' : undefined}>{p.reason ?? ''}</td>
              <td>{p.files.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Batch creation: a folder of people in, avatars, exports and renders out. */
export function BatchScreen() {
  const [input, setInput] = useState('');
  const [outDir, setOutDir] = useState('');
  const [bodyType, setBodyType] = useState<BodyChoice>('');
  const [exportGlb, setExportGlb] = useState(true);
  const [scenes, setScenes] = useState<SceneInfo[]>([]);
  const [chosenScenes, setChosenScenes] = useState<string[]>([]);
  const [format, setFormat] = useState<Format>('png');
  const [concurrency, setConcurrency] = useState(3);
  const [preview, setPreview] = useState<BatchPreview | null>(null);
  const [batch, setBatch] = useState<BatchView | null>(null);
  const [unfinished, setUnfinished] = useState<BatchView[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async (batchId: string) => {
    setBatch(await call('batch.get', { batchId }));
  }, []);

  useEffect(() => {
    call('batch.list', {})
      .then((list) => setUnfinished(list.filter(isUnfinished)))
      .catch((e: unknown) => setError(errorMessage(e)));
    call('scenes.list', {})
      .then(setScenes)
      .catch(() => setScenes([]));
  }, []);

  const batchId = batch?.id ?? null;
  useEffect(() => {
    if (!batchId) return undefined;
    return studio().subscribe((event) => {
      if (event.type === 'batch.person' && event.batchId === batchId)
        setBatch(
          (b) =>
            b && {
              ...b,
              people: b.people.map((p) => (p.person === event.person.person ? event.person : p)),
            },
        );
      if (event.type === 'batch.state' && event.batchId === batchId) void refresh(batchId);
    });
  }, [batchId, refresh]);

  const act = (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    action()
      .catch((e: unknown) => setError(errorMessage(e)))
      .finally(() => setBusy(false));
  };
  const bodyTypeOrNull = bodyType === '' ? null : bodyType;

  const choose = () =>
    act(async () => {
      const chosen = await call('batch.chooseInput', {});
      if (chosen.path) {
        setInput(chosen.path);
        if (!outDir) setOutDir(`${chosen.path}-output`);
      } else document.getElementById('batch-input')?.focus();
    });
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    const dropped = pathFromDrop(
      event.dataTransfer.getData('text/uri-list'),
      event.dataTransfer.getData('text/plain'),
    );
    if (dropped) {
      setInput(dropped);
      if (!outDir) setOutDir(`${dropped}-output`);
    } else setError('Drop a folder from the file manager, or type its path.');
  };
  const doPreview = (event: FormEvent) => {
    event.preventDefault();
    act(async () => setPreview(await call('batch.preview', { input, bodyType: bodyTypeOrNull })));
  };
  const start = () =>
    act(async () => {
      const view = await call('batch.start', {
        input,
        retryFailed: false,
        options: {
          outDir,
          bodyType: bodyTypeOrNull,
          export: exportGlb,
          renders: chosenScenes.map((scene) => ({ scene, format })),
          concurrency,
        },
      });
      setBatch(view);
      setUnfinished((list) => list.filter((b) => b.id !== view.id));
    });
  const resume = (id: string) =>
    act(async () => {
      setBatch(await call('batch.resume', { batchId: id }));
      setUnfinished((list) => list.filter((b) => b.id !== id));
    });

  return (
    <div className="screen batch-screen">
      <h1>Batch</h1>
      {unfinished.map((b) => (
        <div key={b.id} className="panel" role="region" aria-label={`Unfinished batch ${b.label}`}>
          <p>
            The batch <strong>{b.label}</strong> stopped with{' '}
            {b.counts.people - b.counts.succeeded - b.counts.failed - b.counts.invalid} of{' '}
            {b.counts.people} people unfinished.
          </p>
          <button
            type="button"
            className="btn primary"
            disabled={busy}
            onClick={() => resume(b.id)}
          >
            Resume {b.label}
          </button>
        </div>
      ))}
      <form
        className="panel batch-form"
        onSubmit={doPreview}
        onDragOver={(e) => e.preventDefault()}
        onDrop={onDrop}
        aria-label="Batch input"
      >
        <p>
          A folder with one sub-folder per person (frontal, side-1 and side-2 photos, an optional
          person.json), or a CSV manifest. Choose it, drop it here or type its path.
        </p>
        <div className="row">
          <label htmlFor="batch-input">Folder or manifest</label>
          <input
            id="batch-input"
            value={input}
            onChange={(e) => setInput(e.target.value)}
            placeholder="/path/to/people"
            required
          />
          <button type="button" className="btn" onClick={choose} disabled={busy}>
            Choose folder…
          </button>
        </div>
        <div className="row">
          <label htmlFor="batch-out">Output folder</label>
          <input
            id="batch-out"
            value={outDir}
            onChange={(e) => setOutDir(e.target.value)}
            placeholder="/path/to/output"
          />
        </div>
        <fieldset>
          <legend>Options</legend>
          <label>
            Default body type{' '}
            <select value={bodyType} onChange={(e) => setBodyType(e.target.value as BodyChoice)}>
              <option value="">None (person.json or manifest only)</option>
              <option value="male">male</option>
              <option value="female">female</option>
            </select>
          </label>
          <label>
            <input
              type="checkbox"
              checked={exportGlb}
              onChange={(e) => setExportGlb(e.target.checked)}
            />{' '}
            Export avatar.glb
          </label>
          {scenes.map((s) => (
            <label key={s.name}>
              <input
                type="checkbox"
                checked={chosenScenes.includes(s.name)}
                onChange={(e) =>
                  setChosenScenes((list) =>
                    e.target.checked ? [...list, s.name] : list.filter((n) => n !== s.name),
                  )
                }
              />{' '}
              Render {s.name}
            </label>
          ))}
          <label>
            Render format{' '}
            <select value={format} onChange={(e) => setFormat(e.target.value as Format)}>
              <option value="png">png</option>
              <option value="jpg">jpg</option>
              <option value="webp">webp</option>
            </select>
          </label>
          <label>
            People at once{' '}
            <input
              type="number"
              min={1}
              max={16}
              value={concurrency}
              onChange={(e) =>
                setConcurrency(Math.min(16, Math.max(1, Number(e.target.value) || 1)))
              }
            />
          </label>
        </fieldset>
        <div className="row">
          <button type="submit" className="btn" disabled={busy || input.trim() === ''}>
            Preview
          </button>
          <button
            type="button"
            className="btn primary"
            disabled={busy || input.trim() === '' || outDir.trim() === ''}
            onClick={start}
          >
            Start
          </button>
        </div>
        {error ? <p role="alert">{error}</p> : null}
      </form>
      {preview && !batch ? <PreviewTable preview={preview} /> : null}
      {batch ? <RunPanel batch={batch} onChange={setBatch} /> : null}
    </div>
  );
}
