import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'src/app',
  ssr: true,
  buildDirectory: process.env.BUILD_DIR ?? 'build',
} satisfies Config;
