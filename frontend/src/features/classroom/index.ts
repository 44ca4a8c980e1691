// Public API of the classroom feature: an instructor's class page and the class board, the
// class stream, and the pieces a student's screens show (banner, follow panel, their assigned
// exercises on the home page). The app layer composes them with the people feature (who is in
// which class) and the bench feature (drawing a presented run or sweep).
export { AssignedExercises } from './components/assigned-exercises';
export { ClassBanner } from './components/class-banner';
export { ClassBoard } from './components/class-board';
export { ClassBoardPage } from './components/class-board-page';
export { ClassPage } from './components/class-page';
export { ClassQuestion, type ClassQuestionProps } from './components/class-question';
export { FollowPanel, type FollowPanelProps } from './components/follow-panel';
export { HandButton } from './components/live-strip';
export { useClassStream } from './hooks/use-class-stream';
export type { ClassStreamState } from './lib/class-stream-state';
export type { Presentation } from './lib/classroom-schemas';
