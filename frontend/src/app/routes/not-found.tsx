import { Link } from 'react-router';

export function NotFoundRoute() {
  return (
    <div className="page">
      <h1>Page not found</h1>
      <p>
        <Link to="/">← Back to the course</Link>
      </p>
    </div>
  );
}
