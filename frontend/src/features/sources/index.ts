// Public API of the sources feature.
export { SourceBlock } from './components/source-block';
