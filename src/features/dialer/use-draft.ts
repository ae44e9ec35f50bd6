import { useEffect, useState } from 'react';

/** Where a dialer draft lives: this tab's sessionStorage, per session, contact and kind (note, edits). */
export const draftKey = (sessionId: string, contactId: string, kind: 'note' | 'edits') =>
  `ringbook.dialer-draft.${sessionId}.${contactId}.${kind}`;

function readDraft<T>(key: string): T | undefined {
  try {
    const raw = window.sessionStorage.getItem(key);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  } catch {
    return undefined;
  }
}

/**
 * A value typed on the dialer that survives a reload of the tab: kept in sessionStorage while it is not empty,
 * removed once it is (sent, saved or undone). `restored` says it came back from an earlier load.
 */
export function useDraft<T>(key: string, empty: T, isEmpty: (value: T) => boolean) {
  const [initial] = useState(() => readDraft<T>(key));
  const [value, setValue] = useState<T>(initial ?? empty);
  const [restored, setRestored] = useState(initial !== undefined && !isEmpty(initial));
  const blank = isEmpty(value);

  useEffect(() => {
    try {
      if (blank) window.sessionStorage.removeItem(key);
      else window.sessionStorage.setItem(key, JSON.stringify(value));
    } catch {
      /* Storage full or refused (private mode): the draft lives as long as the page, as before. */
    }
  }, [key, value, blank]);

  useEffect(() => {
    if (blank) setRestored(false);
  }, [blank]);

  return { value, setValue, restored };
}
