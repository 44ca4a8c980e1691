import { useTranslation } from 'react-i18next';

import { shortNote } from '../lib/short-note';

interface ClampedNoteProps {
  text: string;
  /** Longest text shown whole; a longer one shows its start and opens to the rest. */
  limit?: number;
}

/** A note that may run to many lines (an invalid run's reason, with the server's log): its
 *  first sentence, and the whole behind "more", so a table cell stays a line or two. */
export function ClampedNote({ text, limit = 120 }: ClampedNoteProps) {
  const { t } = useTranslation('bench');
  const short = shortNote(text, limit);
  if (short === null) return <>{text}</>;
  return (
    <details className="clamped-note">
      <summary>
        {short} <span className="clamped-note__more">{t('clampedNote.more')}</span>
      </summary>
      <p className="clamped-note__full">{text}</p>
    </details>
  );
}
