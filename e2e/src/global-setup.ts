import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ensureWebBuild, startStack } from './harness';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    mailDir: string;
    wsEndpoint: string;
  }
}

/** One server, one mailbox and one browser for the whole suite; test files open contexts on it. */
export default async function setup(project: TestProject) {
  ensureWebBuild((line) => console.log(line));
  const stack = await startStack();
  const browserServer = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  project.provide('baseURL', stack.baseURL);
  project.provide('mailDir', stack.mailDir);
  project.provide('wsEndpoint', browserServer.wsEndpoint());

  return async () => {
    await browserServer.close();
    await stack.stop();
  };
}
