/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import { constants as zlib } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

// The FastAPI backend serves /api (and, in production, this build at /).
const backend = process.env.C10KLAB_BACKEND ?? 'http://localhost:8000';

/**
 * A .gz and a .br beside every compressible file of dist/, at the highest levels: compressed
 * once here, the backend (backend/c10klab/web.py) sends whichever the browser accepts and never
 * compresses per request. A file that does not shrink gets no sibling and is sent as it is.
 */
const precompress = compression({
  include: /\.(js|mjs|css|html|svg|json|map|txt|xml)$/,
  algorithms: [
    defineAlgorithm('gzip', { level: zlib.Z_BEST_COMPRESSION }),
    defineAlgorithm('brotliCompress', {
      params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    }),
  ],
});

export default defineConfig({
  plugins: [react(), precompress],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The largest chunk (~660 kB) is @mermaid-js/parser's Langium runtime, which Mermaid
    // fetches lazily and only for some diagram types; the main chunk is ~140 kB.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'charts', test: /node_modules[\\/](chart\.js|react-chartjs-2|@kurkle)[\\/]/ },
            // The highlighter alone: the lab, the history and the permalinks show code (a block's
            // YAML) without needing the Markdown renderer.
            { name: 'highlight', test: /node_modules[\\/]highlight\.js[\\/]/ },
            // The editor of the edit pages (CodeMirror and its parsers), loaded with those pages only.
            { name: 'codemirror', test: /node_modules[\\/](@codemirror|codemirror|@lezer|@marijn|crelt|style-mod|w3c-keyname)[\\/]/ },
            // YAML (the source blocks' parser) stays out: the glossary shares this chunk.
            {
              name: 'markdown',
              test: /node_modules[\\/](react-markdown|remark-[^\\/]+|micromark[^\\/]*|mdast-[^\\/]+|hast-[^\\/]+|unified|vfile[^\\/]*|unist-[^\\/]+)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      // SSE passes through the proxy unbuffered.
      '/api': { target: backend, changeOrigin: true },
    },
  },
  test: {
    environment: 'jsdom',
    // Worker threads, not processes, and one jsdom per worker rather than per file: a fresh
    // environment for each of a hundred files was two thirds of the suite's time. Each test
    // leaves the page as it found it (setup-tests.ts cleans up; module caches must notice a
    // change made while nothing watched, as use-chart-theme's does).
    pool: 'threads',
    isolate: false,
    globals: true,
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
  },
});
