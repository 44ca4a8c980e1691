import { Link } from 'react-router';

/** The people pages in solo mode (`make up`), which has no logins and no classes. */
export function SoloModeNote() {
  return (
    <div className="page people-page" data-testid="solo-mode">
      <h1>No class here</h1>
      <p>
        This course runs in solo mode: there are no logins or classes, and you can run every
        benchmark as you are. (An instructor hosts a class by starting the course with{' '}
        <code>C10K_MODE=classroom</code>.)
      </p>
      <p>
        <Link to="/">← Back to the course</Link>
      </p>
    </div>
  );
}
