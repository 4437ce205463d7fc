import { i18n } from '../lib/i18n';
import { composeDocumentTitle, titleKeyFor } from '../lib/route-meta';

/** Guard step 2, also re-run when the language changes. */
export function applyDocumentTitle(pathname: string, search: string) {
  const key = titleKeyFor(pathname, search);
  document.title = composeDocumentTitle(key ? i18n.t(key) : undefined, i18n.t('app.name'));
}
