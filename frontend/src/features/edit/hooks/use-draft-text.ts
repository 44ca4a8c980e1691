import { useCallback, useEffect, useRef, useState } from 'react';

/** Typing is kept this long after the last key, not on every key. */
const DRAFT_DELAY_MS = 400;

/** `base`: the text needs no draft (the original, an exercise's starter). */
export type DraftStatus = 'base' | 'unsaved' | 'saved' | 'not-saved';

/** Where the text is kept: `save` says whether the browser kept it. */
export interface DraftSlot {
  save: (text: string) => boolean;
  clear: () => void;
}

export interface UseDraftText {
  text: string;
  status: DraftStatus;
  /** The editor's text changed: kept after a pause in the typing. */
  onChange: (text: string) => void;
  /** Keeps the text now (before it is sent). */
  keepNow: () => void;
}

/**
 * The editor's text, kept in `slot` as it is typed (after a pause, and whatever is left when
 * the page goes). Back to `base`, the draft is forgotten; with `base` null (a saved edit's
 * copy) it is always kept. `slot` should keep its identity from one render to the next.
 */
export function useDraftText(slot: DraftSlot, base: string | null, start: { text: string; fromDraft: boolean }): UseDraftText {
  const [text, setText] = useState(start.text);
  const [status, setStatus] = useState<DraftStatus>(start.fromDraft ? 'saved' : start.text === base ? 'base' : 'unsaved');
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const keep = useCallback(
    (next: string) => {
      if (saveTimer.current !== null) clearTimeout(saveTimer.current);
      saveTimer.current = null;
      if (next === base) {
        slot.clear();
        setStatus('base');
        return;
      }
      setStatus(slot.save(next) ? 'saved' : 'not-saved');
    },
    [base, slot],
  );

  const onChange = useCallback(
    (next: string) => {
      setText(next);
      setStatus('unsaved');
      if (saveTimer.current !== null) clearTimeout(saveTimer.current);
      saveTimer.current = setTimeout(() => { keep(next); }, DRAFT_DELAY_MS);
    },
    [keep],
  );

  // Whatever is typed is kept when the page goes, even within the delay.
  const latest = useRef(text);
  useEffect(() => {
    latest.current = text;
  }, [text]);
  useEffect(
    () => () => {
      if (saveTimer.current !== null) keep(latest.current);
    },
    [keep],
  );

  const keepNow = useCallback(() => { keep(latest.current); }, [keep]);
  return { text, status, onChange, keepNow };
}
