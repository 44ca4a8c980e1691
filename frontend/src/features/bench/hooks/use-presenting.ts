import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** What a class is shown: an experiment of a lesson and, when there is one, its run or series.
 *  No title: the API titles it from the block in each of the course's languages, so every
 *  student reads it in their own (one the instructor typed would be shown as typed to all). */
export interface PresentTarget {
  lesson: string;
  /** The block's key, as GET /api/lessons/{slug} lists it. */
  experiment: string;
  run_id?: string;
  sweep_id?: string;
}

/**
 * Given by the app to an instructor's widgets: shows the class an experiment (PUT …/presentation)
 * or stops (DELETE). `presenting`: this block is the one the class is shown.
 */
export interface Presenter {
  present: (target: PresentTarget) => Promise<void>;
  stop: () => Promise<void>;
  presenting: boolean;
}

type Shown = Pick<PresentTarget, 'run_id' | 'sweep_id'>;

export interface UsePresenting {
  /** This block is the one presented. */
  presented: boolean;
  pending: boolean;
  /** Why the last Present or Stop failed, to show beside the button. */
  error: string | null;
  /** Presents the block, with its current run or series if it has one. */
  present: (shown: Shown) => Promise<void>;
  /** After Run on the presented block: present the new run, so the class follows it live. */
  follow: (shown: Shown) => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * A widget's side of presenting: the target it shows (its lesson and key), and the
 * state of the last request. Null when there is no presenter (not an instructor in a class)
 * or the block has no key to present it by.
 */
export function usePresenting(
  presenter: Presenter | null | undefined,
  target: Omit<PresentTarget, keyof Shown> | null,
): UsePresenting | null {
  const { t } = useTranslation('bench');
  const [pending, setPending] = useState(false);
  // Kept as what failed and the error's words, said in the language shown when it is shown.
  const [failed, setFailed] = useState<{ what: 'present' | 'stop'; detail: string } | null>(null);

  const act = useCallback(async (what: 'present' | 'stop', action: () => Promise<void>) => {
    setPending(true);
    setFailed(null);
    try {
      await action();
    } catch (failure) {
      setFailed({ what, detail: failure instanceof Error ? failure.message : String(failure) });
    } finally {
      setPending(false);
    }
  }, []);

  if (!presenter || !target) return null;
  const present = (shown: Shown) => act('present', () => presenter.present({ ...target, ...shown }));
  const error = failed
    ? t(failed.what === 'present' ? 'present.presentFailed' : 'present.stopFailed', { detail: failed.detail })
    : null;
  return {
    presented: presenter.presenting,
    pending,
    error,
    present,
    follow: (shown) => (presenter.presenting ? present(shown) : Promise.resolve()),
    stop: () => act('stop', () => presenter.stop()),
  };
}
