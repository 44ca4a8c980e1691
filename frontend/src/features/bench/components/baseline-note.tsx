/** Says that the figures shown are a recorded reference result, and from where. */
export function BaselineNote({ text }: { text: string }) {
  return (
    <p className="experiment__baseline" data-testid="baseline-note">
      Reference result, {text}. Press <strong>Run live</strong> to measure it on this machine now.
    </p>
  );
}
