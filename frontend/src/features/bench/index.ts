// Public API of the bench feature.
export { ComparePermalink } from './components/compare-permalink';
export { ExperimentBlock } from './components/experiment-block';
export type { RunGate } from './components/experiment-controls';
export { HistoryPage } from './components/lab/history-page';
export { LabPage } from './components/lab/lab-page';
export { PresentedReference } from './components/presented-reference';
export { PresentedRun } from './components/presented-run';
export { PresentedSweep } from './components/presented-sweep';
export { RunPermalink } from './components/run-permalink';
export { SweepPermalink } from './components/sweep-permalink';
export type { Presenter, PresentTarget } from './hooks/use-presenting';
