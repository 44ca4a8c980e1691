import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { usePageTitle } from '@/hooks/use-page-title';

import { ClassBoard } from './class-board';

import './classroom.css';

/**
 * /#/classes/:id/board: the class board on a page of its own, for students (read-only) and the
 * instructor, who can put it on the projector full screen (larger type, nothing else around).
 */
export function ClassBoardPage({ classId, canSpotlight }: { classId: string; canSpotlight: boolean }) {
  const { t } = useTranslation('classroom');
  usePageTitle(t('boardPage.title'));
  const page = useRef<HTMLDivElement>(null);
  const [fullScreen, setFullScreen] = useState(false);
  useEffect(() => {
    const follow = () => {
      setFullScreen(document.fullscreenElement === page.current);
    };
    document.addEventListener('fullscreenchange', follow);
    return () => {
      document.removeEventListener('fullscreenchange', follow);
    };
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void page.current?.requestFullscreen();
  };
  return (
    <div className={`class-page${fullScreen ? ' class-page--projector' : ''}`} data-testid="class-board-page" ref={page}>
      <header className="class-board-page__header">
        <h1>{t('boardPage.title')}</h1>
        <button type="button" className="button" onClick={toggle} data-testid="board-full-screen">
          {fullScreen ? t('boardPage.exitFullScreen') : t('boardPage.fullScreen')}
        </button>
      </header>
      <p>{t('boardPage.intro')}</p>
      <ClassBoard classId={classId} canSpotlight={canSpotlight} />
      <p>
        <Link to="/">{t('backToCourse')}</Link>
      </p>
    </div>
  );
}
