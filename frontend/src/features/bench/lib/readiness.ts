/**
 * Why a Run button must stay disabled, from GET /api/health and the catalog.
 * The widget shows the reason next to the button instead of hiding anything.
 */
import type { TFunction } from 'i18next';

import type { Health, Server } from '@/lib/api-schemas';

import { isVariantEntry } from './round-comparison';

export interface ReadinessInput {
  health: Health | undefined;
  healthError: unknown;
  servers: Server[] | undefined;
  serverId: string;
}

export function runBlockedReason({ health, healthError, servers, serverId }: ReadinessInput, t: TFunction<'bench'>): string | null {
  if (!health) {
    if (healthError) {
      const detail = healthError instanceof Error ? healthError.message : t('readiness.noAnswer');
      return t('readiness.healthFailed', { detail });
    }
    return t('readiness.checking');
  }
  if (!health.docker.reachable) {
    return health.docker.error
      ? t('readiness.dockerUnreachableBecause', { error: health.docker.error })
      : t('readiness.dockerUnreachable');
  }

  const server = servers?.find((s) => s.id === serverId);
  // A learner's edit (a sweep's `variant:<id>`) is no catalog server: the API resolves it, and
  // refuses it in words if it is not theirs.
  if (servers && !server && !isVariantEntry(serverId)) {
    return t('readiness.unknownServer', { server: serverId });
  }

  const missing = Object.entries(health.images)
    .filter(([, present]) => !present)
    .map(([tag]) => tag);
  if (server?.image && missing.includes(server.image)) {
    return t('readiness.imageMissing', { image: server.image });
  }
  // Images that belong to no server (the load generator) are needed by every run.
  const serverImages = new Set((servers ?? []).map((s) => s.image).filter(Boolean));
  const shared = servers ? missing.filter((tag) => !serverImages.has(tag)) : missing;
  if (shared.length > 0) {
    return t('readiness.missingImages', { count: shared.length, images: shared.join(', ') });
  }
  if (!health.ready && !servers) {
    return t('readiness.notReady');
  }
  return null;
}
