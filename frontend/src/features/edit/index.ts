// Public API of the edit feature: a learner's edited servers (the editor, a saved edit's page).
export { EditIndex, EditPage } from './components/edit-page';
export { VariantPage } from './components/variant-page';
