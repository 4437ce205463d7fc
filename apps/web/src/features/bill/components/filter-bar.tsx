import { DownFill } from 'antd-mobile-icons';
import { type KeyboardEvent, useId, useRef, useState } from 'react';

export interface FilterOption {
  value: string;
  label: string;
}

export interface Filter {
  key: string;
  /** What the filter is about ("Currency"), said before its value. */
  name: string;
  /** The value shown on the button ("All currencies", "ETH"). */
  title: string;
  options: readonly FilterOption[];
  selected: string;
  onPick: (value: string) => void;
}

/**
 * The statement's filters (decision 022): each is a button (Tab, then Enter or Space)
 * that opens its choices below it, buttons too, the chosen one pressed. Escape closes and
 * gives the focus back. antd-mobile's Dropdown and Selector take no focus at all.
 */
export function FilterBar({ filters }: { filters: readonly Filter[] }) {
  const [openKey, setOpenKey] = useState<string | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const panelId = useId();
  const open = filters.find((f) => f.key === openKey);

  const close = () => {
    if (openKey) buttons.current.get(openKey)?.focus();
    setOpenKey(null);
  };
  const onEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    close();
  };

  return (
    <div className="bill-filters">
      <div className="bill-filter-buttons">
        {filters.map((filter) => (
          <button
            key={filter.key}
            ref={(el) => {
              if (el) buttons.current.set(filter.key, el);
              else buttons.current.delete(filter.key);
            }}
            type="button"
            className={`bill-filter-button${filter.key === openKey ? ' bill-filter-button--open' : ''}`}
            aria-label={`${filter.name}: ${filter.title}`}
            aria-expanded={filter.key === openKey}
            aria-controls={filter.key === openKey ? panelId : undefined}
            onClick={() => setOpenKey(filter.key === openKey ? null : filter.key)}
            onKeyDown={filter.key === openKey ? onEscape : undefined}
            data-testid={`filter-${filter.key}`}
          >
            <span className="bill-filter-title">{filter.title}</span>
            <DownFill aria-hidden className="bill-filter-arrow" />
          </button>
        ))}
      </div>
      {open ? (
        <fieldset id={panelId} aria-label={open.name} className="bill-filter-panel" onKeyDown={onEscape}>
          {open.options.map((option) => (
            <button
              key={option.value}
              type="button"
              className={`bill-filter-option${option.value === open.selected ? ' bill-filter-option--active' : ''}`}
              aria-pressed={option.value === open.selected}
              onClick={() => {
                close();
                open.onPick(option.value);
              }}
            >
              {option.label}
            </button>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
