import { screen, waitFor } from '@testing-library/react';

/** How long a test waits for the charts' code: a test worker's first import of it is cold, and
 *  on a busy machine slower than Testing Library's default second. */
const CHART_CODE_TIMEOUT_MS = 3000;

/**
 * The chart `testId` once it is drawn, and every chart beside it. The bench's charts load their
 * code (and Chart.js) when the first is drawn, each keeping its place until then (ChartLoading):
 * a test waits for them once before reading them.
 */
export async function findChart(testId: string): Promise<HTMLElement> {
  const chart = await screen.findByTestId(testId, undefined, { timeout: CHART_CODE_TIMEOUT_MS });
  await waitFor(() => {
    expect(screen.queryAllByTestId('chart-loading')).toHaveLength(0);
  });
  return chart;
}
