/**
 * JSON for the web bridge. JSON has no bytes, so a Uint8Array travels as
 * `{"$bytes": "<base64>"}` and is restored on the other side before the
 * contract's schemas parse it. Runs in Node and in the browser alike.
 */
const BYTES_KEY = '$bytes';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk)
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function encodeWire(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v instanceof Uint8Array ? { [BYTES_KEY]: toBase64(v) } : v,
  );
}

export function decodeWire(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (
      v !== null &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      Object.keys(v).length === 1 &&
      typeof (v as Record<string, unknown>)[BYTES_KEY] === 'string'
    )
      return fromBase64((v as Record<string, string>)[BYTES_KEY]!);
    return v;
  });
}
