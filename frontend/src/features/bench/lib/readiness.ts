/**
 * Why a Run button must stay disabled, from GET /api/health and the catalog.
 * The widget shows the reason next to the button instead of hiding anything.
 */
import type { Health, Server } from '@/lib/api-schemas';

export interface ReadinessInput {
  health: Health | undefined;
  healthError: unknown;
  servers: Server[] | undefined;
  serverId: string;
}

export function runBlockedReason({ health, healthError, servers, serverId }: ReadinessInput): string | null {
  if (!health) {
    if (healthError) {
      const detail = healthError instanceof Error ? healthError.message : 'no answer';
      return `The backend health check failed: ${detail}`;
    }
    return 'Checking the backend…';
  }
  if (!health.docker.reachable) {
    return `Docker is unreachable${health.docker.error ? `: ${health.docker.error}` : ''}. Benchmarks cannot run.`;
  }

  const server = servers?.find((s) => s.id === serverId);
  if (servers && !server) {
    return `Unknown server "${serverId}": it is not in the sandbox catalog.`;
  }

  const missing = Object.entries(health.images)
    .filter(([, present]) => !present)
    .map(([tag]) => tag);
  if (server?.image && missing.includes(server.image)) {
    return `The image ${server.image} is not built yet.`;
  }
  // Images that belong to no server (the load generator) are needed by every run.
  const serverImages = new Set((servers ?? []).map((s) => s.image).filter(Boolean));
  const shared = servers ? missing.filter((tag) => !serverImages.has(tag)) : missing;
  if (shared.length > 0) {
    return `Missing image${shared.length > 1 ? 's' : ''}: ${shared.join(', ')}.`;
  }
  if (!health.ready && !servers) {
    return 'The backend reports it is not ready to run benchmarks.';
  }
  return null;
}
