import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  server: {
    port: 5173,
    // The lead's API (apps/server) listens on :3000 during development.
    proxy: { '/mvapi': { target: 'http://127.0.0.1:3000', changeOrigin: true } },
  },
});
