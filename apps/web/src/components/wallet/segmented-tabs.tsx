import type { KeyboardEvent } from 'react';

export interface SegmentedTab<Key extends string> {
  key: Key;
  title: string;
}

export interface SegmentedTabsProps<Key extends string> {
  tabs: readonly SegmentedTab<Key>[];
  active: Key;
  onChange: (key: Key) => void;
  /** The tab list's accessible name ("Send by", "Records"). */
  label: string;
  /** `capsule`: pills (bills); `line`: underlined titles (transfer). */
  look: 'capsule' | 'line';
  className?: string;
}

/**
 * A row of tabs that are real buttons (decision 022): each is reached with Tab and chosen
 * with Enter or Space, the arrows move between them too, and the selected one says so
 * (role tab, aria-selected). antd-mobile's capsule tabs take no focus at all, and its line
 * tabs leave every tab but the selected one out of the Tab order.
 */
export function SegmentedTabs<Key extends string>({ tabs, active, onChange, label, look, className }: SegmentedTabsProps<Key>) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role=tab]')];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    event.preventDefault();
    const next = (at + (event.key === 'ArrowRight' ? 1 : -1) + buttons.length) % buttons.length;
    buttons[next]?.focus();
    const tab = tabs[next];
    if (tab) onChange(tab.key);
  };
  return (
    <div
      role="tablist"
      aria-label={label}
      className={`wallet-tabs wallet-tabs--${look}${className ? ` ${className}` : ''}`}
      onKeyDown={onKeyDown}
    >
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === active}
          className={`wallet-tab${tab.key === active ? ' wallet-tab--active' : ''}`}
          onClick={() => tab.key !== active && onChange(tab.key)}
        >
          {tab.title}
        </button>
      ))}
    </div>
  );
}
