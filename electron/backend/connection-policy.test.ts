import { describe, expect, it } from 'vitest';
import {
  environmentTokenFor,
  hostedBaseUrlProblem,
  isLoopbackHost,
  normalizeBaseUrl,
} from './connection-policy.js';

describe('where the API token may go', () => {
  const env = {
    AVATAR_API_TOKEN: 'tok-env',
    AVATAR_API_BASE_URL: 'https://api.example.com/v1/',
  };

  it('gives the environment token to AVATAR_API_BASE_URL only', () => {
    expect(environmentTokenFor('https://api.example.com/v1', env)).toBe('tok-env');
    expect(environmentTokenFor('https://api.example.com/v1//', env)).toBe('tok-env');
    for (const other of [
      'https://evil.example',
      'https://api.example.com',
      'https://api.example.com/v1/x',
      'http://api.example.com/v1',
      'https://api.example.com.evil.example/v1',
      'https://api.example.com:444/v1',
      'https://user:pw@api.example.com/v1',
      'not a url',
    ])
      expect(environmentTokenFor(other, env), other).toBeNull();
  });

  it('gives it to nobody without AVATAR_API_BASE_URL', () => {
    expect(environmentTokenFor('https://api.example.com/v1', { AVATAR_API_TOKEN: 't' })).toBeNull();
    expect(environmentTokenFor('https://api.example.com/v1', {})).toBeNull();
  });

  it('accepts https anywhere and http on loopback only', () => {
    for (const ok of [
      'https://api.example.com',
      'https://api.example.com/base',
      'http://127.0.0.1:8400',
      'http://127.9.0.1',
      'http://localhost:3000',
      'http://[::1]:8400',
    ])
      expect(hostedBaseUrlProblem(ok), ok).toBeNull();
    for (const bad of [
      'http://api.example.com',
      'http://192.168.1.10:8400',
      'http://127.0.0.1.evil.example',
      'http://localhost.evil.example',
      'http://[::2]',
      'ftp://api.example.com',
      'https://user:pw@api.example.com',
      'https://api.example.com/?x=1',
      'javascript:alert(1)',
      'nonsense',
    ])
      expect(hostedBaseUrlProblem(bad), bad).not.toBeNull();
    expect(hostedBaseUrlProblem('http://api.example.com')).toMatch(/https/);
  });

  it('recognises loopback names exactly', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
    expect(isLoopbackHost('127.0.0.256')).toBe(false);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });

  it('normalises trailing slashes and refuses credentials, queries and fragments', () => {
    expect(normalizeBaseUrl('https://a.example/x///')).toBe('https://a.example/x');
    expect(normalizeBaseUrl('https://a.example')).toBe('https://a.example');
    expect(normalizeBaseUrl('https://u:p@a.example')).toBeNull();
    expect(normalizeBaseUrl('https://a.example/?q')).toBeNull();
  });
});
