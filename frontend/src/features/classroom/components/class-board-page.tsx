import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { usePageTitle } from '@/hooks/use-page-title';

import { ClassBoard } from './class-board';

import './classroom.css';

/** /#/classes/:id/board: the class board on a page of its own, for students (read-only) and the instructor. */
export function ClassBoardPage({ classId, canSpotlight }: { classId: string; canSpotlight: boolean }) {
  const { t } = useTranslation('classroom');
  usePageTitle(t('boardPage.title'));
  return (
    <div className="class-page" data-testid="class-board-page">
      <h1>{t('boardPage.title')}</h1>
      <p>{t('boardPage.intro')}</p>
      <ClassBoard classId={classId} canSpotlight={canSpotlight} />
      <p>
        <Link to="/">{t('backToCourse')}</Link>
      </p>
    </div>
  );
}
