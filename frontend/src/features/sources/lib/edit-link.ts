import type { Server } from '@/lib/api-schemas';

/**
 * The server whose model file `path` is, when a learner may edit and run it (a C server of the
 * catalog; the shared protocol modules and the Rust servers are read-only here); else null.
 */
export function editableServer(path: string, servers: readonly Server[] | undefined): Server | null {
  return servers?.find((s) => s.language === 'c' && s.source === path) ?? null;
}
