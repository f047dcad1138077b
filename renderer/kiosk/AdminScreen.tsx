import { useCallback, useEffect, useState } from 'react';
import {
  KIOSK_LANGUAGES,
  type KioskAdminView,
  type KioskCorner,
  type KioskRetention,
  type KioskSettingsChange,
} from '../../shared/studio/index.js';
import { call, errorMessage } from '../store.js';
import { useKiosk } from './kiosk-store.js';
import { LanguageBar } from './LanguageBar.js';
import { CATALOGUE, type MessageKey } from './messages.js';
import { useMessages } from './useMessages.js';

const CORNER_LABEL: Record<KioskCorner, MessageKey> = {
  any: 'cornerAny',
  'top-left': 'cornerTopLeft',
  'top-right': 'cornerTopRight',
  'bottom-left': 'cornerBottomLeft',
  'bottom-right': 'cornerBottomRight',
};

const COUNTER_LABEL = {
  visitors: 'counterVisitors',
  avatars: 'counterAvatars',
  failures: 'counterFailures',
  deletions: 'counterDeletions',
} as const satisfies Record<string, MessageKey>;

const RETENTION_LABEL: Record<KioskRetention['mode'], MessageKey> = {
  delete: 'retentionDelete',
  keep: 'retentionKeep',
  copy: 'retentionCopy',
};

function NumberField(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange(value: number): void;
}) {
  return (
    <label className="kiosk-field">
      <span>{props.label}</span>
      <input
        type="number"
        inputMode="numeric"
        min={props.min}
        max={props.max}
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
      />
    </label>
  );
}

/** The operator's menu: counters, booth closed, the visitor settings, retention, delivery, leave. */
export function AdminScreen({ session }: { session: string }) {
  const t = useMessages();
  const setAdmin = useKiosk((s) => s.setAdmin);
  const load = useKiosk((s) => s.load);
  const [view, setView] = useState<KioskAdminView | null>(null);
  const [draft, setDraft] = useState<KioskSettingsChange>({});
  const [newPin, setNewPin] = useState('');
  const [note, setNote] = useState<string | null>(null);

  const fail = useCallback(
    (error: unknown) => {
      setNote(errorMessage(error));
      if (errorMessage(error).includes('PIN again')) setAdmin({ name: 'pin' });
    },
    [setAdmin],
  );

  useEffect(() => {
    call('kiosk.admin.get', { session }).then(setView, fail);
  }, [session, fail]);

  if (!view)
    return (
      <div className="kiosk-overlay" role="dialog" aria-label={t('adminTitle')}>
        <p role="status">{note ?? t('adminLoading')}</p>
      </div>
    );
  const s = { ...view.settings, ...draft };
  const texts = draft.consentTexts ?? view.settings.consent.texts;
  const change = (patch: KioskSettingsChange) => setDraft((d) => ({ ...d, ...patch }));
  const retention: KioskRetention = s.retention;

  async function save(extra: KioskSettingsChange = {}) {
    try {
      const next = await call('kiosk.admin.update', {
        session,
        change: { ...draft, ...extra },
        ...(newPin ? { newPin } : {}),
      });
      setView(next);
      setDraft({});
      setNewPin('');
      setNote(t('saved'));
      await load();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <div className="kiosk-overlay" role="dialog" aria-modal="true" aria-labelledby="admin-title">
      <div className="kiosk-admin">
        <LanguageBar />
        <h2 id="admin-title">{t('adminTitle')}</h2>
        {view.pinIsDefault ? (
          <p className="kiosk-trouble" role="alert">
            {t('adminFactoryPin')}
          </p>
        ) : null}
        <dl className="kiosk-counters" aria-label={t('countersLabel')}>
          {(Object.keys(COUNTER_LABEL) as (keyof typeof COUNTER_LABEL)[]).map((k) => (
            <div key={k}>
              <dt>{t(COUNTER_LABEL[k])}</dt>
              <dd>{view.counters[k]}</dd>
            </div>
          ))}
        </dl>
        <p className="kiosk-muted">
          {t('adminStatus', {
            pending: view.pendingDeletions,
            server: view.delivery.url ?? view.delivery.error ?? t('serverNotRunning'),
          })}
        </p>
        <label className="kiosk-check">
          <input
            type="checkbox"
            checked={s.boothClosed}
            onChange={(e) => void save({ boothClosed: e.target.checked })}
          />
          {t('boothClosedSetting')}
        </label>

        <fieldset>
          <legend>{t('consentLegend', { version: view.settings.consent.version })}</legend>
          {KIOSK_LANGUAGES.map((code) => (
            <label key={code} className="kiosk-field wide">
              <span>{t('consentTextFor', { language: CATALOGUE[code].languageName })}</span>
              <textarea
                rows={4}
                value={texts[code] ?? ''}
                onChange={(e) => change({ consentTexts: { ...texts, [code]: e.target.value } })}
              />
            </label>
          ))}
        </fieldset>

        <fieldset>
          <legend>{t('visitorsLegend')}</legend>
          <div className="kiosk-row">
            {KIOSK_LANGUAGES.map((code) => (
              <label key={code} className="kiosk-check">
                <input
                  type="checkbox"
                  checked={s.languages.includes(code)}
                  onChange={(e) =>
                    change({
                      languages: e.target.checked
                        ? [...s.languages, code]
                        : s.languages.filter((l) => l !== code),
                    })
                  }
                />
                {CATALOGUE[code].languageName}
              </label>
            ))}
          </div>
          <NumberField
            label={t('idleTimeout')}
            value={s.idleSeconds}
            min={3}
            max={600}
            onChange={(v) => change({ idleSeconds: v })}
          />
          <NumberField
            label={t('countdownLength')}
            value={s.countdownSeconds}
            min={1}
            max={10}
            onChange={(v) => change({ countdownSeconds: v })}
          />
          <label className="kiosk-check">
            <input
              type="checkbox"
              checked={s.attractLoop}
              onChange={(e) => change({ attractLoop: e.target.checked })}
            />
            {t('attractLoopSetting')}
          </label>
        </fieldset>

        <fieldset>
          <legend>{t('retentionLegend')}</legend>
          {(['delete', 'keep', 'copy'] as const).map((mode) => (
            <label key={mode} className="kiosk-check">
              <input
                type="radio"
                name="retention"
                checked={retention.mode === mode}
                onChange={() =>
                  change({
                    retention:
                      mode === 'delete'
                        ? { mode }
                        : mode === 'keep'
                          ? { mode, minutes: 30 }
                          : { mode, folder: '' },
                  })
                }
              />
              {t(RETENTION_LABEL[mode])}
            </label>
          ))}
          {retention.mode === 'keep' ? (
            <NumberField
              label={t('retentionMinutes')}
              value={retention.minutes}
              min={1}
              max={1440}
              onChange={(minutes) => change({ retention: { mode: 'keep', minutes } })}
            />
          ) : null}
          {retention.mode === 'copy' ? (
            <label className="kiosk-field wide">
              <span>{t('deliveryFolder')}</span>
              <input
                type="text"
                value={retention.folder}
                onChange={(e) => change({ retention: { mode: 'copy', folder: e.target.value } })}
              />
            </label>
          ) : null}
        </fieldset>

        <fieldset>
          <legend>{t('deliveryLegend')}</legend>
          <label className="kiosk-field">
            <span>{t('networkInterface')}</span>
            <select
              value={s.delivery.host}
              onChange={(e) => change({ delivery: { ...s.delivery, host: e.target.value } })}
            >
              {view.interfaces.map((i) => (
                <option key={`${i.name}-${i.address}`} value={i.address}>
                  {i.name}: {i.address}
                </option>
              ))}
            </select>
          </label>
          <NumberField
            label={t('deliveryPort')}
            value={s.delivery.port}
            min={0}
            max={65535}
            onChange={(port) => change({ delivery: { ...s.delivery, port } })}
          />
          <NumberField
            label={t('linkLifetime')}
            value={s.delivery.linkMinutes}
            min={1}
            max={240}
            onChange={(linkMinutes) => change({ delivery: { ...s.delivery, linkMinutes } })}
          />
        </fieldset>

        <fieldset>
          <legend>{t('operatorLegend')}</legend>
          <label className="kiosk-field">
            <span>{t('adminCorner')}</span>
            <select
              value={s.adminGesture.corner}
              onChange={(e) =>
                change({
                  adminGesture: { ...s.adminGesture, corner: e.target.value as KioskCorner },
                })
              }
            >
              {Object.entries(CORNER_LABEL).map(([value, label]) => (
                <option key={value} value={value}>
                  {t(label)}
                </option>
              ))}
            </select>
          </label>
          <NumberField
            label={t('holdFor')}
            value={s.adminGesture.holdSeconds}
            min={1}
            max={10}
            onChange={(holdSeconds) => change({ adminGesture: { ...s.adminGesture, holdSeconds } })}
          />
          <label className="kiosk-field">
            <span>{t('newPin')}</span>
            <input
              type="password"
              inputMode="numeric"
              autoComplete="new-password"
              value={newPin}
              onChange={(e) => setNewPin(e.target.value.replace(/\D/g, '').slice(0, 12))}
            />
          </label>
          <label className="kiosk-check">
            <input
              type="checkbox"
              checked={s.startInKiosk}
              onChange={(e) => change({ startInKiosk: e.target.checked })}
            />
            {t('startInKiosk')}
          </label>
          <label className="kiosk-check">
            <input
              type="checkbox"
              checked={s.startAtLogin}
              onChange={(e) => change({ startAtLogin: e.target.checked })}
            />
            {t('startAtLogin')}
          </label>
        </fieldset>

        {note ? (
          <p className="kiosk-muted" role="status">
            {note}
          </p>
        ) : null}
        <div className="kiosk-actions">
          <button type="button" className="kiosk-btn primary" onClick={() => void save()}>
            {t('save')}
          </button>
          <button
            type="button"
            className="kiosk-btn"
            onClick={() => {
              void call('kiosk.admin.lock', { session }).catch(() => undefined);
              setAdmin({ name: 'closed' });
            }}
          >
            {t('backToBooth')}
          </button>
          <button
            type="button"
            className="kiosk-btn danger"
            onClick={() =>
              void call('kiosk.admin.leave', { session }).then(
                () => setAdmin({ name: 'closed' }),
                fail,
              )
            }
          >
            {t('leaveKiosk')}
          </button>
        </div>
      </div>
    </div>
  );
}
