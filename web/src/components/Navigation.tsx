import { Badge, NavLink, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowsExchange,
  IconBuilding,
  IconBuildingStore,
  IconChecklist,
  IconFileInvoice,
  IconFlask,
  IconHome,
  IconInbox,
  IconKey,
  IconMapPin,
  IconPackage,
  IconPill,
  IconScan,
  IconSettings,
  IconTags,
  IconUsers,
  IconWebhook,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import { type Count, formatCount, useNavigationCounts } from '../home/counts';
import { useSession } from '../session';

// The navigation (docs/web.md, "Navigation"): Tabler icons (Mantine's own choice), the counts of the home page as
// badges, and exactly ONE active entry: the entry whose path is the longest whole-segment prefix of the address
// (/order-requests/awaiting-approval is "Awaiting my approval", not also "Order requests"; /inventory/items/… is
// "Inventory"). The router's own NavLink marks every prefix active, which is why it is not used here.

interface Entry {
  to: string;
  label: string;
  icon: ComponentType<{ size?: number; stroke?: number; 'aria-hidden'?: boolean }>;
  admin?: boolean;
  badge?: 'approvals' | 'open' | 'inventory' | 'putAway';
}

export const NAV: Entry[] = [
  { to: '/', label: 'Home', icon: IconHome },
  { to: '/inventory', label: 'Inventory', icon: IconPackage, badge: 'inventory' },
  { to: '/locations', label: 'Locations', icon: IconMapPin },
  { to: '/scan', label: 'Scan', icon: IconScan },
  { to: '/put-away', label: 'Put away', icon: IconInbox, badge: 'putAway' },
  { to: '/controlled', label: 'Controlled substances', icon: IconPill },
  { to: '/types', label: 'Types', icon: IconTags },
  { to: '/safety', label: 'Safety', icon: IconAlertTriangle },
  { to: '/order-requests', label: 'Order requests', icon: IconFileInvoice, badge: 'open' },
  { to: '/order-requests/awaiting-approval', label: 'Awaiting my approval', icon: IconChecklist, badge: 'approvals' },
  { to: '/shop', label: 'Shop', icon: IconBuildingStore },
  { to: '/labs', label: 'Your labs', icon: IconFlask },
  { to: '/settings', label: 'Settings', icon: IconSettings },
  // Org admins only (web/src/pages/admin/AdminOnly.tsx); the server refuses members anyway.
  { to: '/admin/members', label: 'Members', icon: IconUsers, admin: true },
  { to: '/admin/labs', label: 'Labs', icon: IconBuilding, admin: true },
  { to: '/admin/sso', label: 'Single sign-on', icon: IconKey, admin: true },
  { to: '/lab-migration', label: 'Lab migration', icon: IconArrowsExchange, admin: true },
  { to: '/webhooks', label: 'Webhooks', icon: IconWebhook, admin: true },
];

/** The one entry the address belongs to (null: none, e.g. a page not in the navigation). */
export function activeEntry(pathname: string, entries: Entry[] = NAV): string | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  let best: string | null = null;
  for (const { to } of entries) {
    const inside = to === '/' ? path === '/' : path === to || path.startsWith(`${to}/`);
    if (inside && (best === null || to.length > best.length)) best = to;
  }
  return best;
}

function CountBadge({ count, label }: { count: Count | undefined; label: string }) {
  if (!count || count.total === 0) return null;
  return (
    <Badge size="sm" variant="filled" circle={count.total < 10 && !count.atLeast} title={label} data-testid="nav-count">
      {formatCount(count)}
    </Badge>
  );
}

export function Navigation({ onNavigate }: { onNavigate: () => void }) {
  const { organization } = useSession();
  const { pathname } = useLocation();
  const counts = useNavigationCounts();
  const active = activeEntry(
    pathname,
    NAV.filter((e) => !e.admin || organization.role === 'admin'),
  );
  const inventory: Count | undefined =
    counts.expiring && counts.below
      ? { total: counts.expiring.total + counts.below.total, atLeast: counts.expiring.atLeast || counts.below.atLeast }
      : undefined;
  const badges = {
    approvals: { count: counts.approvals, label: 'waiting for your approval' },
    open: { count: counts.open, label: 'of your requests open' },
    putAway: { count: counts.putAway, label: 'to put away' },
    inventory: {
      count: inventory,
      label: `${formatCount(counts.expiring)} expiring, ${formatCount(counts.below)} below minimum in your lab`,
    },
  };
  const link = (entry: Entry) => {
    const Icon = entry.icon;
    const badge = entry.badge && badges[entry.badge];
    const isActive = active === entry.to;
    return (
      <NavLink
        key={entry.to}
        component={Link}
        to={entry.to}
        label={entry.label}
        leftSection={<Icon size={18} stroke={1.8} aria-hidden />}
        rightSection={badge ? <CountBadge count={badge.count} label={`${formatCount(badge.count)} ${badge.label}`} /> : undefined}
        active={isActive}
        aria-current={isActive ? 'page' : undefined}
        onClick={onNavigate}
        aria-describedby={entry.admin ? 'admin-nav' : undefined}
        variant="light"
        fw={isActive ? 600 : undefined}
      />
    );
  };
  return (
    <Stack gap={2}>
      {NAV.filter((e) => !e.admin).map(link)}
      {organization.role === 'admin' && (
        <>
          <Text size="xs" fw={700} c="dimmed" px="sm" pt="sm" id="admin-nav">
            Organization
          </Text>
          {NAV.filter((e) => e.admin).map(link)}
        </>
      )}
    </Stack>
  );
}
