// Public API of the search feature.
export { SearchBox } from './components/search-box';
