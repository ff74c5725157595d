import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The gateway serves dist/ for every non-API path; in development Vite forwards the API to it.
const gateway = 'http://127.0.0.1:5000';

export default defineConfig({
  plugins: [react()],
  // Routes and sections load lazily; the budget that matters is the first screen's gzip size
  // (about 210 KB, measured by bench/web-first-screen.ts), not the minified size of the shared vendor chunk (about 520 KB).
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/api': gateway, '/health': gateway } },
  preview: { proxy: { '/api': gateway, '/health': gateway } },
});
