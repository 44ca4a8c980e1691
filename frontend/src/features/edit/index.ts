// Public API of the edit feature: a learner's edited servers (the editor, a saved edit's page)
// and the exercises answered with them.
export { EditIndex, EditPage } from './components/edit-page';
export { ExerciseIndex } from './components/exercise-list';
export { ExercisePage } from './components/exercise-page';
export { VariantPage } from './components/variant-page';
