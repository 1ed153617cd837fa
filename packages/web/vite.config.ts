import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The app is built to dist/ and served by the service at `/` (docs/adr/0097-web-app.md). The
 * typed client is compiled from its TypeScript source (packages/client/src), so the app needs no
 * separate client build. VITE_API_URL (build time) points the app at an API on another origin.
 */
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@intro-match/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3001', '/graphql': 'http://localhost:3001' } },
});
