import { type KeyboardEvent, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { type AdminTab, adminTabs } from './tabs.ts';

export const tabId = (tab: AdminTab) => `admin-tab-${tab}`;
export const panelId = 'admin-tabpanel';

/**
 * WAI-ARIA tabs with a roving tabindex: Tab reaches the active tab only, arrow keys, Home and
 * End move between tabs and open them (the tab is in the URL, so links work without JS).
 */
export function AdminTabs({ active, analytics }: { active: AdminTab; analytics: boolean }) {
  const tabs = adminTabs(analytics);
  const navigate = useNavigate();
  const refs = useRef<(HTMLAnchorElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, index: number) => {
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : -1;
    if (next < 0) return;
    event.preventDefault();
    refs.current[next]?.focus();
    navigate(`/admin?tab=${tabs[next].id}`);
  };
  return (
    <div className="admin-tabs" role="tablist" aria-label="Admin sections">
      {tabs.map((tab, index) => {
        const selected = tab.id === active;
        return (
          <Link
            key={tab.id}
            ref={(el) => {
              refs.current[index] = el;
            }}
            id={tabId(tab.id)}
            role="tab"
            to={`/admin?tab=${tab.id}`}
            aria-selected={selected}
            aria-controls={selected ? panelId : undefined}
            tabIndex={selected ? 0 : -1}
            className={selected ? 'admin-tab active' : 'admin-tab'}
            onKeyDown={(event) => onKeyDown(event, index)}
            preventScrollReset
          >
            {tab.label}
          </Link>
        );
      })}
    </div>
  );
}
