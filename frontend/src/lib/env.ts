import { z } from 'zod';

/**
 * Build-time environment, validated once. `VITE_API_BASE` is an optional
 * origin/prefix for the API (default: same origin, which is how the backend
 * serves the built frontend and how the Vite dev proxy works).
 */
const envSchema = z.object({
  VITE_API_BASE: z
    .string()
    .regex(/^(https?:\/\/[^\s]+)?$/, 'VITE_API_BASE must be empty or an http(s) URL')
    .default('')
    .transform((value) => value.replace(/\/+$/, '')),
});

export const env = envSchema.parse(import.meta.env);
