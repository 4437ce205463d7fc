/**
 * The per-answer nonce the server wrote into the page (meta csp-nonce); undefined under the
 * Vite dev server, which sends no CSP and leaves the placeholder.
 */
export const STYLE_NONCE: string | undefined = (() => {
  const value = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  return value && !value.startsWith('__') ? value : undefined;
})();

/**
 * antd's CSS-in-JS takes the nonce from ConfigProvider, but a few helpers below it write
 * <style> elements without one (@rc-component/util's scrollbar measurement in Table, the
 * scroll lock of Modal); the CSP would block those. Every <style> element this page creates
 * through createElement gets the nonce. Markup parsed from strings (innerHTML) does not pass
 * here, so injected markup still cannot style the page.
 */
function nonceEveryStyleElement() {
  const nonce = STYLE_NONCE;
  if (!nonce) return;
  const create = Document.prototype.createElement;
  Document.prototype.createElement = function createElement(this: Document, tagName: string, options?: ElementCreationOptions) {
    const element = create.call(this, tagName, options);
    if (element instanceof HTMLStyleElement) element.nonce = nonce;
    return element;
  } as typeof Document.prototype.createElement;
}

// At import: main.tsx imports this module first, before any module that may write styles.
nonceEveryStyleElement();
