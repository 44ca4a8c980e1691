// Public API of the bench feature.
export { ExperimentBlock } from './components/experiment-block';
