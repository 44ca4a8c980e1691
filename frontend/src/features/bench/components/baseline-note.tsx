import { Trans, useTranslation } from 'react-i18next';

/**
 * Says that the figures shown are a recorded reference result, and from where; and, to whoever
 * may run benchmarks here (not someone who has yet to join the class), how to measure it live,
 * quoting the widget's own Run button (`runLabel`, null for whoever may not run): one label
 * before and after a run.
 */
export function BaselineNote({ text, runLabel }: { text: string; runLabel: string | null }) {
  const { t } = useTranslation('bench');
  return (
    <p className="experiment__baseline" data-testid="baseline-note">
      {runLabel !== null ? (
        <Trans t={t} i18nKey="baseline.noteRunLive" values={{ text, label: runLabel }} components={{ strong: <strong /> }} />
      ) : (
        t('baseline.note', { text })
      )}
    </p>
  );
}
