import { type AnchorHTMLAttributes, type ComponentType, createContext, type MouseEvent, useContext } from 'react';
import { normalizePath } from './route-meta';

/**
 * Links that work with and without react-router (decision 026). The signed-out landing
 * page first renders without the router (main.tsx): react-router is one module, so a single
 * `Link` in the first screen would bring all of it. Until the router has taken over, these
 * are real links whose plain clicks hand the page to the router (landing.tsx), which then
 * opens the target; once it has, they are react-router's own Link and NavLink.
 */
type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'className'>;

export interface AppLinkProps extends AnchorProps {
  to: string;
  className?: string;
}

export interface AppNavLinkProps extends AnchorProps {
  to: string;
  /** Active only on the exact path (react-router's `end`). */
  end?: boolean;
  className?: (state: { isActive: boolean }) => string;
}

export interface RouterLinks {
  Link: ComponentType<AppLinkProps>;
  NavLink: ComponentType<AppNavLinkProps>;
}

/** Filled with react-router's Link and NavLink by the router (app/start-router.tsx). */
export const RouterLinksContext = createContext<RouterLinks | null>(null);

let landingNavigate: ((to: string) => void) | null = null;

/** The landing page's hand-over to the router (app/landing.tsx). */
export function setLandingNavigate(navigate: (to: string) => void) {
  landingNavigate = navigate;
}

/** What react-router's Link leaves to the browser: modified or non-primary clicks, other targets. */
function handleLandingClick(event: MouseEvent<HTMLAnchorElement>, to: string, onClick: AnchorProps['onClick']) {
  onClick?.(event);
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  const target = event.currentTarget.getAttribute('target');
  if (target && target !== '_self') return;
  if (!landingNavigate) return;
  event.preventDefault();
  landingNavigate(to);
}

function isActivePath(to: string, end: boolean): boolean {
  const here = normalizePath(window.location.pathname);
  const path = normalizePath(to);
  return end || path === '/' ? here === path : here === path || here.startsWith(`${path}/`);
}

export function AppLink({ to, onClick, ...props }: AppLinkProps) {
  const router = useContext(RouterLinksContext);
  if (router) return <router.Link to={to} onClick={onClick} {...props} />;
  return <a href={to} {...props} onClick={(event) => handleLandingClick(event, to, onClick)} />;
}

export function AppNavLink({ to, end = false, className, onClick, ...props }: AppNavLinkProps) {
  const router = useContext(RouterLinksContext);
  if (router) return <router.NavLink to={to} end={end} className={className} onClick={onClick} {...props} />;
  const isActive = isActivePath(to, end);
  return (
    <a
      href={to}
      aria-current={isActive ? 'page' : undefined}
      className={className?.({ isActive })}
      {...props}
      onClick={(event) => handleLandingClick(event, to, onClick)}
    />
  );
}
