/**
 * Says that the figures shown are a recorded reference result, and from where; and, to whoever
 * may run benchmarks here (not someone who has yet to join the class), how to measure it live.
 */
export function BaselineNote({ text, canRun = true }: { text: string; canRun?: boolean }) {
  return (
    <p className="experiment__baseline" data-testid="baseline-note">
      Reference result, {text}.
      {canRun ? (
        <>
          {' '}
          Press <strong>Run live</strong> to measure it on this machine now.
        </>
      ) : null}
    </p>
  );
}
