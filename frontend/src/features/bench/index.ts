// Public API of the bench feature.
export { ExperimentBlock } from './components/experiment-block';
export type { RunGate } from './components/experiment-controls';
