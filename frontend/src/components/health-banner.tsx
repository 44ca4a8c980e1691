import { useHealth } from '@/hooks/use-health';

/**
 * A slim banner under the header when benchmarks cannot run: backend down,
 * Docker unreachable or images missing. Silent when everything is ready.
 */
export function HealthBanner() {
  const health = useHealth();

  let message: string | null = null;
  if (health.isError) {
    message = `The backend is unreachable (${health.error.message}). Lessons and benchmarks need it running.`;
  } else if (health.data) {
    const { docker, images, ready } = health.data;
    const missing = Object.entries(images)
      .filter(([, present]) => !present)
      .map(([tag]) => tag);
    if (!docker.reachable) {
      message = `Docker is unreachable${docker.error ? ` (${docker.error})` : ''}: benchmarks cannot run.`;
    } else if (missing.length > 0) {
      message = `Some sandbox images are not built: ${missing.join(', ')}. Experiments that need them are disabled.`;
    } else if (!ready) {
      message = 'The backend reports it is not ready to run benchmarks.';
    }
  }
  if (!message) return null;
  return (
    <div className="health-banner" role="status" data-testid="health-banner">
      <div className="health-banner__inner">{message}</div>
    </div>
  );
}
