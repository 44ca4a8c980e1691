// Public API of the bench feature.
export { ExperimentBlock } from './components/experiment-block';
export type { RunGate } from './components/experiment-controls';
export { PresentedRun } from './components/presented-run';
export { PresentedSweep } from './components/presented-sweep';
export { RunPermalink } from './components/run-permalink';
export { SweepPermalink } from './components/sweep-permalink';
export type { Presenter, PresentTarget } from './hooks/use-presenting';
