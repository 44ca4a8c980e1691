/**
 * The API's types and zod validators, generated from the backend's OpenAPI document
 * (openapi.json, written by `python -m c10klab.openapi`): `make contract` runs both, and
 * `make lint` fails when either file is stale. Hand-written shapes live nowhere else.
 */
import { defineConfig } from '@hey-api/openapi-ts';

export default defineConfig({
  input: './openapi.json',
  output: { path: './src/lib/api/generated', postProcess: [] },
  plugins: ['@hey-api/typescript', { name: 'zod', requests: false, responses: false }],
});
