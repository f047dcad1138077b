import { useEffect, useState } from 'react';
import { call } from '../store.js';

interface Loaded {
  fileId: string;
  url: string | null;
  failed: boolean;
}

/** A blob URL for a saved file's bytes (files.read); revoked when the id changes or on unmount. */
export function useFileUrl(fileId: string | null): { url: string | null; failed: boolean } {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    if (!fileId) return;
    let url: string | null = null;
    let cancelled = false;
    call('files.read', { fileId }).then(
      (file) => {
        if (cancelled) return;
        url = URL.createObjectURL(new Blob([file.bytes.slice()], { type: file.mimeType }));
        setLoaded({ fileId, url, failed: false });
      },
      () => !cancelled && setLoaded({ fileId, url: null, failed: true }),
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [fileId]);
  // What was loaded for another id (or none) is not shown while this one loads.
  if (!fileId || loaded?.fileId !== fileId) return { url: null, failed: false };
  return { url: loaded.url, failed: loaded.failed };
}
