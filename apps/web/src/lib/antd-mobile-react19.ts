import { unstableSetRender } from 'antd-mobile';
import { createRoot, type Root } from 'react-dom/client';

/**
 * antd-mobile 5 renders Toast/Dialog imperatively through ReactDOM.render, which React 19
 * removed. This documented shim hands it createRoot instead. Every imperative entry point
 * (lib/toast.ts, lib/dialog.ts) imports it, which keeps it out of the entry bundle.
 */
type Container = (Element | DocumentFragment) & { _reactRoot?: Root };

unstableSetRender((node, container: Container) => {
  container._reactRoot ??= createRoot(container);
  const root = container._reactRoot;
  root.render(node);
  return async () => {
    // Unmounting synchronously inside a React commit warns; let the current one finish.
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete container._reactRoot;
  };
});
