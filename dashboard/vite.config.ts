import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dashboard's build (`npm run build` at the root, through scripts/build-dashboard.js) writes
 * ../dist/dashboard/, which the server serves at /dashboard. `npm run dev -w dashboard` serves it
 * with hot reload on http://localhost:5173/dashboard/, sending the API's paths to a running server
 * (TESSERA_URL, default http://localhost:4000).
 */
const api = process.env.TESSERA_URL ?? 'http://localhost:4000';

export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: '../dist/dashboard',
    emptyOutDir: true,
    assetsDir: 'assets',
    chunkSizeWarningLimit: 900,
  },
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: api, ws: true, changeOrigin: true },
    },
  },
});
