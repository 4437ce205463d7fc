import './rich-html.css';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';

/**
 * A body the server rendered from Markdown and sanitised (banners, notices, help articles,
 * activity rules). Only such `html` fields come here: user text is never rendered as HTML.
 * Links to this site stay inside the app (no full reload); others open as they are.
 */
export function RichHtml({ html, testId }: { html: string; testId?: string }) {
  const navigate = useNavigate();

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const anchor = (event.target as HTMLElement).closest('a');
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const url = new URL(anchor.href, window.location.href);
    if (url.origin !== window.location.origin || url.pathname.startsWith('/api/')) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: delegation for the links inside; Enter on a link clicks it, and the click bubbles here
    // biome-ignore lint/a11y/noStaticElementInteractions: the same delegation; the interactive elements are the links themselves
    <div
      className="rich-html"
      data-testid={testId}
      onClick={onClick}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server (see above)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
