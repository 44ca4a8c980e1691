// Public API of the lessons feature.
export { CourseHome } from './components/course-home';
export { GlossaryPage } from './components/glossary-page';
export { LessonPage } from './components/lesson-page';
export type { ClassQuestionRenderer, FencedBlockRenderers } from './components/lesson-markdown';
export type { Reader, ReaderProp } from './lib/reader';
