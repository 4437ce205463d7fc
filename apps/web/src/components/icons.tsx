import type { SVGProps } from 'react';

/**
 * Line icons for the always-loaded shell (tab bar, nav bar, home). antd-mobile-icons are
 * 2-5 kB each; these few strokes keep the initial bundle inside its budget.
 */
function Icon({ children, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      {...props}
    >
      {children}
    </svg>
  );
}

export function HomeIcon() {
  return (
    <Icon>
      <path d="M3 10.5 12 3l9 7.5" />
      <path d="M5 9v11h5v-6h4v6h5V9" />
    </Icon>
  );
}

export function SwapIcon() {
  return (
    <Icon>
      <path d="M4 8h14l-4-4" />
      <path d="M20 16H6l4 4" />
    </Icon>
  );
}

export function ListIcon() {
  return (
    <Icon>
      <path d="M9 6h11M9 12h11M9 18h11" />
      <path d="M4 6h.01M4 12h.01M4 18h.01" strokeWidth={2.6} />
    </Icon>
  );
}

export function UserIcon() {
  return (
    <Icon>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" />
    </Icon>
  );
}

export function BillIcon() {
  return (
    <Icon>
      <path d="M6 3h12v18l-3-2-3 2-3-2-3 2z" />
      <path d="M9 8h6M9 12h6" />
    </Icon>
  );
}

export function DepositIcon() {
  return (
    <Icon>
      <path d="M12 3v11m-4-4 4 4 4-4" />
      <path d="M4 15v5h16v-5" />
    </Icon>
  );
}

export function WithdrawIcon() {
  return (
    <Icon>
      <path d="M12 14V3M8 7l4-4 4 4" />
      <path d="M4 15v5h16v-5" />
    </Icon>
  );
}

export function SendIcon() {
  return (
    <Icon>
      <path d="M21 3 10 14" />
      <path d="M21 3l-7 18-4-7-7-4z" />
    </Icon>
  );
}
