/**
 * localStorage behind zod: whatever is stored is validated on read, and a
 * corrupt or outdated value falls back to the default instead of crashing.
 */
import type { z } from 'zod';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // e.g. disabled by privacy settings
  }
}

export function readStored<S extends z.ZodType>(key: string, schema: S, fallback: z.infer<S>): z.infer<S> {
  const raw = storage()?.getItem(key);
  if (raw == null) return fallback;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage disabled: progress is a convenience, not data.
  }
}
