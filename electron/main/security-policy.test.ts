import { describe, expect, it } from 'vitest';
import {
  WEB_PREFERENCES,
  navigationAllowed,
  permissionAllowed,
  permissionCheckAllowed,
  windowOpenDecision,
} from './security-policy.js';

describe('the shell security policy', () => {
  it('keeps the renderer isolated and sandboxed', () => {
    expect(WEB_PREFERENCES).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
  });

  it('grants only the camera, only to our own origin', () => {
    expect(permissionAllowed('media', 'app://studio/index.html', ['video'])).toBe(true);
    expect(permissionAllowed('media', 'app://studio/', ['video', 'audio'])).toBe(false);
    expect(permissionAllowed('media', 'app://studio/', [])).toBe(false);
    expect(permissionAllowed('geolocation', 'app://studio/', [])).toBe(false);
    expect(permissionAllowed('notifications', 'app://studio/', [])).toBe(false);
    expect(permissionAllowed('media', 'https://evil.example/', ['video'])).toBe(false);
    expect(permissionAllowed('media', 'app://evil/', ['video'])).toBe(false);
    expect(permissionCheckAllowed('media', 'app://studio')).toBe(true);
    expect(permissionCheckAllowed('media', 'http://127.0.0.1:1')).toBe(false);
  });

  it('allows navigation only within the app', () => {
    expect(navigationAllowed('app://studio/index.html#library')).toBe(true);
    for (const url of [
      'https://evil.example',
      'file:///etc/passwd',
      'app://other/',
      'javascript:alert(1)',
    ])
      expect(navigationAllowed(url), url).toBe(false);
  });

  it('opens session pages of the configured API in a bare window, https in the browser, nothing else', () => {
    const api = 'http://127.0.0.1:8400';
    expect(windowOpenDecision('http://127.0.0.1:8400/session/abc?token=x', api)).toMatchObject({
      action: 'session-window',
    });
    expect(windowOpenDecision('http://127.0.0.1:9999/session/abc', api)).toEqual({
      action: 'deny',
    });
    expect(windowOpenDecision('https://docs.example/x', api)).toMatchObject({ action: 'external' });
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@x.example/',
      'not a url',
    ])
      expect(windowOpenDecision(url, api), url).toEqual({ action: 'deny' });
  });
});
