import os from 'node:os';

export interface LanInterface {
  name: string;
  address: string;
}

/** The addresses this machine has, loopback first: what the delivery server may bind to. */
export function lanInterfaces(
  source: () => ReturnType<typeof os.networkInterfaces> = os.networkInterfaces,
): LanInterface[] {
  const found: LanInterface[] = [];
  for (const [name, addresses] of Object.entries(source()))
    for (const a of addresses ?? []) {
      // Link-local IPv6 needs a zone id in URLs, which phones' QR readers do not take.
      if (a.family === 'IPv6' && a.address.toLowerCase().startsWith('fe80')) continue;
      found.push({ name, address: a.address });
    }
  return found.sort(
    (a, b) => Number(b.address === '127.0.0.1') - Number(a.address === '127.0.0.1'),
  );
}
