import { useTranslation } from 'react-i18next';

import { useHealth } from '@/hooks/use-health';

/**
 * A slim banner under the header when benchmarks cannot run: backend down,
 * Docker unreachable or images missing. Silent when everything is ready.
 */
export function HealthBanner() {
  const { t } = useTranslation();
  const health = useHealth();

  let message: string | null = null;
  if (health.isError) {
    message = t('health.backendUnreachable', { error: health.error.message });
  } else if (health.data) {
    const { docker, images, ready } = health.data;
    const missing = Object.entries(images)
      .filter(([, present]) => !present)
      .map(([tag]) => tag);
    if (!docker.reachable) {
      message = docker.error ? t('health.dockerUnreachableBecause', { error: docker.error }) : t('health.dockerUnreachable');
    } else if (missing.length > 0) {
      message = t('health.imagesMissing', { images: missing.join(', ') });
    } else if (!ready) {
      message = t('health.notReady');
    }
  }
  if (!message) return null;
  return (
    <div className="health-banner" role="status" data-testid="health-banner">
      <div className="bar-inner health-banner__inner">{message}</div>
    </div>
  );
}
