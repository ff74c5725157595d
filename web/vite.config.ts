import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The gateway serves dist/ for every non-API path; in development Vite forwards the API to it.
const gateway = 'http://127.0.0.1:5000';

export default defineConfig({
  plugins: [react()],
  // Routes and sections load lazily, each with its texts; the budget that matters is the first
  // screen's gzip size (measured by bench/web-first-screen.ts: under 250 KB). Everything the entry
  // imports statically is one chunk: left to itself Rolldown splits it into some twenty small
  // shared chunks, and over HTTP/1.1 (six connections) the first screen waited on their queue.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'first-load', tags: ['$initial'] }] } } },
  },
  server: { proxy: { '/api': gateway, '/health': gateway } },
  preview: { proxy: { '/api': gateway, '/health': gateway } },
});
