import path from 'node:path';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;

export default defineConfig({
  root: path.join(root, 'src/client'),
  publicDir: path.join(root, 'src/client/public'),
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: path.join(root, 'src/client/routes'),
      generatedRouteTree: path.join(root, 'src/client/routeTree.gen.ts'),
      routeFileIgnorePrefix: '-',
      autoCodeSplitting: true,
    }),
    react(),
  ],
  build: {
    outDir: path.join(root, 'dist/client'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  test: {
    root,
    // Vitest's default on 2 cores is one worker, so the browser files (one at a time) and the
    // server and unit files ran one after another; two workers run the latter beside them.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/engine/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          // End to end against the real server process: the browser tests, and the kill -9 suite.
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/crash/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
