import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  // Server-side rendering; `react-router build` writes build/server/index.js and build/client/.
  ssr: true,
} satisfies Config;
