import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/* In development the API server runs on PORT (default 3000); Vite proxies the API and the session routes to it. */
const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: { outDir: 'dist', sourcemap: true },
  server: { proxy: { '/rest': api, '/auth': api, '/healthz': api } },
});
