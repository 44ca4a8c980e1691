import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function RouteErrorRoute() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <div className="page" role="alert">
      <h1>Something went wrong</h1>
      <p>{message}</p>
      <p>
        <Link to="/">← Back to the course</Link>
      </p>
    </div>
  );
}
