import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KioskSettings, type KioskSettingsChange } from '../../../shared/studio/index.js';
import { writeFileAtomic } from '../../../service/index.js';

/** A booth out of the box: delete at once, loopback delivery, no attract loop. */
export const DEFAULT_KIOSK_SETTINGS: KioskSettings = {
  consent: {
    version: 1,
    texts: {
      en: 'We take three photos of your face to make your 3D avatar. The photos are sent to the avatar service and deleted, with your avatar, when you finish or walk away. Nothing is kept unless the operator has said so here.',
      de: 'Wir machen drei Fotos von Ihrem Gesicht, um Ihren 3D-Avatar zu erstellen. Die Fotos gehen an den Avatar-Dienst und werden zusammen mit Ihrem Avatar gelöscht, wenn Sie fertig sind oder gehen. Es wird nichts aufbewahrt, außer der Betreiber sagt es hier.',
      fr: "Nous prenons trois photos de votre visage pour créer votre avatar 3D. Les photos sont envoyées au service d'avatars et supprimées, avec votre avatar, quand vous avez fini ou partez. Rien n'est gardé, sauf si l'opérateur l'indique ici.",
    },
  },
  languages: ['en', 'de', 'fr'],
  idleSeconds: 45,
  countdownSeconds: 3,
  retention: { mode: 'delete' },
  delivery: { host: '127.0.0.1', port: 0, linkMinutes: 15 },
  boothClosed: false,
  attractLoop: false,
  startInKiosk: false,
  startAtLogin: false,
  adminGesture: { corner: 'any', holdSeconds: 3 },
};

/** Applies an operator's change; a changed consent text is a new consent version. */
export function applyKioskChange(
  current: KioskSettings,
  change: KioskSettingsChange,
): KioskSettings {
  const { consentTexts, ...rest } = change;
  const textsChanged =
    consentTexts !== undefined &&
    JSON.stringify(consentTexts) !== JSON.stringify(current.consent.texts);
  return KioskSettings.parse({
    ...current,
    ...rest,
    consent: textsChanged
      ? { version: current.consent.version + 1, texts: consentTexts }
      : current.consent,
  });
}

/** The kiosk settings in `<dataDir>/kiosk.json`, written atomically. */
export function kioskSettingsStore(dataDir: string) {
  const file = path.join(dataDir, 'kiosk.json');
  mkdirSync(dataDir, { recursive: true });
  let current = DEFAULT_KIOSK_SETTINGS;
  if (existsSync(file)) {
    // A damaged file must not keep the booth shut; the defaults are the private ones.
    try {
      const parsed = KioskSettings.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) current = parsed.data;
    } catch {
      current = DEFAULT_KIOSK_SETTINGS;
    }
  }
  return {
    get: (): KioskSettings => current,
    update(change: KioskSettingsChange): KioskSettings {
      current = applyKioskChange(current, change);
      writeFileAtomic(file, JSON.stringify(current, null, 2));
      return current;
    },
  };
}
export type KioskSettingsStore = ReturnType<typeof kioskSettingsStore>;
