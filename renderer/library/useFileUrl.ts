import { useEffect, useState } from 'react';
import { call } from '../store.js';

/** A blob URL for a saved file's bytes (files.read); revoked when the id changes or on unmount. */
export function useFileUrl(fileId: string | null): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ url: string | null; failed: boolean }>({
    url: null,
    failed: false,
  });
  useEffect(() => {
    if (!fileId) {
      setState({ url: null, failed: false });
      return;
    }
    let url: string | null = null;
    let cancelled = false;
    call('files.read', { fileId }).then(
      (file) => {
        if (cancelled) return;
        url = URL.createObjectURL(new Blob([file.bytes.slice()], { type: file.mimeType }));
        setState({ url, failed: false });
      },
      () => !cancelled && setState({ url: null, failed: true }),
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [fileId]);
  return state;
}
