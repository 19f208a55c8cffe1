import { Group, Text } from '@mantine/core';
import { ACCENT } from '../theme';

/** The mark: the favicon's flask (web/public/favicon.svg) in the accent colour, drawn inline so it needs no request. */
export function Mark({ size = 28 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill={ACCENT[8]} />
      <path d="M12 5h8v2.5h-1.5v6.2l6.3 10.6A2.4 2.4 0 0 1 22.7 28H9.3a2.4 2.4 0 0 1-2.1-3.7l6.3-10.6V7.5H12z" fill="#fff" />
      <path d="M10.6 21h10.8l2 3.4a.9.9 0 0 1-.8 1.3H9.4a.9.9 0 0 1-.8-1.3z" fill={ACCENT[3]} />
    </svg>
  );
}

/** The mark and the wordmark "Labstock", as the header shows them. */
export function Brand() {
  return (
    <Group gap={8} wrap="nowrap">
      <Mark />
      <Text component="span" fw={800} fz={22} lh={1} c="dark.8" style={{ letterSpacing: '-0.02em' }}>
        Lab<span style={{ color: ACCENT[8] }}>stock</span>
      </Text>
    </Group>
  );
}
