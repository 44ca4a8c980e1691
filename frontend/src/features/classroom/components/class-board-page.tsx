import { Link } from 'react-router';

import { usePageTitle } from '@/hooks/use-page-title';

import { ClassBoard } from './class-board';

import './classroom.css';

/** /#/classes/:id/board: the class board on a page of its own, for students (read-only) and the instructor. */
export function ClassBoardPage({ classId, canSpotlight }: { classId: string; canSpotlight: boolean }) {
  usePageTitle('Class board');
  return (
    <div className="class-page" data-testid="class-board-page">
      <h1>Class board</h1>
      <p>
        Everyone’s latest result for each experiment, beside the recorded reference. Invalid or
        disturbed results are marked, and left out of the spread.
      </p>
      <ClassBoard classId={classId} canSpotlight={canSpotlight} />
      <p>
        <Link to="/">← Back to the course</Link>
      </p>
    </div>
  );
}
