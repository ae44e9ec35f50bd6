import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/* In development the API server runs on PORT (default 3000); Vite proxies the API and the session routes to it. */
const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    // No source maps: what is not built cannot be served (the server also refuses any path that decodes to a .map).
    sourcemap: false,
    // Libraries change less often than our code: separate chunks stay cached across deploys.
    rollupOptions: {
      // zod's sources carry comments Rollup cannot place; dropping them is harmless and the warning is noise.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
      output: {
        manualChunks: {
          react: ['react', 'react-dom', 'react-router'],
          tanstack: ['@tanstack/react-query', '@tanstack/react-table'],
          forms: ['zod', 'react-hook-form', '@hookform/resolvers/zod'],
        },
      },
    },
  },
  server: { proxy: { '/rest': api, '/auth': api, '/healthz': api } },
});
