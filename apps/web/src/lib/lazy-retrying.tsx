import { type ComponentType, lazy } from 'react';

type Module<P> = { default: ComponentType<P> };

/**
 * Loads a lazy component together with the page providers (TanStack Query, antd-mobile's
 * locale: page-providers.tsx) and hands it back wrapped in them. The landing page's first
 * screen renders without them; everything that needs them comes through here. It lives in this
 * module, which the entry imports, because the landing route and the router both need it at
 * once: on its own it was a file of its own, one more round trip (decision 069).
 */
export async function withProviders<P extends object>(load: () => Promise<Module<P>>): Promise<Module<P>> {
  const [module, providers] = await Promise.all([
    load(),
    import('./page-providers').then(async (providers) => {
      await providers.preparePageProviders();
      return providers;
    }),
  ]);
  return { default: providers.withPageProviders(module.default) };
}

/**
 * React.lazy that forgets a failed load: React keeps a lazy component's first rejection for
 * the page's life, so one fetch that failed offline would break every later screen that
 * shows the part, until a reload. Here the next mount fetches again. With `onFailure`, a
 * failed load renders that instead of throwing (for parts that are only decoration).
 */
export function lazyRetrying<P extends object>(load: () => Promise<Module<P>>, onFailure?: ComponentType<P>): ComponentType<P> {
  const attempt = (): Promise<Module<P>> =>
    relinkFailedStylesheets()
      .then(load)
      .catch((error: unknown) => {
        current = lazy(attempt);
        if (onFailure) return { default: onFailure };
        throw error;
      });
  let current = lazy(attempt);
  return function LazyRetrying(props: P) {
    const Current = current;
    return <Current {...props} />;
  };
}

/** Stylesheets whose fetch failed, by URL, until they are linked again. */
const failedStylesheets = new Set<string>();

/**
 * Vite's preloader links a chunk's stylesheet once per page life: after a failed fetch it
 * never links it again, and a retried part would come back unstyled. A failed link is noted
 * and removed as it fails (capture phase: the preloader's own listener still hears the
 * error); `relinkFailedStylesheets` links those again before a retry.
 */
export function forgetFailedStylesheets() {
  document.addEventListener(
    'error',
    (event) => {
      const link = event.target;
      if (!(link instanceof HTMLLinkElement) || link.rel !== 'stylesheet') return;
      failedStylesheets.add(link.href);
      link.remove();
    },
    true,
  );
}

let relinking: Promise<unknown> = Promise.resolve();

/**
 * Links every failed stylesheet again and waits for them; rejects while they still fail.
 * A call while they load waits for the same links (a failed one is noted again as it fails).
 */
export function relinkFailedStylesheets(): Promise<unknown> {
  if (failedStylesheets.size === 0) return relinking;
  const hrefs = [...failedStylesheets];
  failedStylesheets.clear();
  relinking = Promise.all(
    hrefs.map(
      (href) =>
        new Promise<void>((resolve, reject) => {
          const link = document.createElement('link');
          link.rel = 'stylesheet';
          link.crossOrigin = '';
          link.href = href;
          link.addEventListener('load', () => resolve());
          link.addEventListener('error', () => reject(new Error(`Unable to preload CSS for ${href}`)));
          document.head.append(link);
        }),
    ),
  );
  return relinking;
}
