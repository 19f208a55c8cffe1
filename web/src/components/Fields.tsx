import { Center, Loader, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A resource's fields as label and value, in as many columns as the width allows (item and request pages). */
export function FieldGrid({ fields }: { fields: [label: string, value: ReactNode | null][] }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs">
      {fields.map(([label, value]) => (
        <div key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text>{value ?? '—'}</Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** Something is on its way: a spinner that says what (for screen readers too). */
export function Loading({ label, size }: { label: string; size?: 'sm' }) {
  return (
    <Center p={size ? 'md' : 'lg'}>
      {/* A span may not carry a name without a role (axe aria-prohibited-attr): "status" gives it one. */}
      <Loader size={size} role="status" aria-label={label} />
    </Center>
  );
}
