import { Badge, Group, List, Stack, Text } from '@mantine/core';
import { Pictograms } from './Pictogram';

export interface Classified {
  statements: { code: string; text: string }[];
  classes: { id: string; name: string; category: string; categories: string[] }[];
  pictograms: string[];
  signal_word: 'Danger' | 'Warning' | null;
}

const categoryText = (k: Classified['classes'][number]) =>
  k.categories.length > 1 ? `category ${k.categories.join(' or ')}` : `category ${k.category}`;

/** Pictograms, the signal word, the statements in words, and the classes they mean. */
export function HazardSummary({ hazards, empty }: { hazards: Classified; empty: string }) {
  if (hazards.statements.length === 0)
    return (
      <Text size="sm" data-testid="no-hazards">
        {empty}
      </Text>
    );
  return (
    <Stack gap={6}>
      <Group gap="sm" align="center">
        <Pictograms codes={hazards.pictograms} size={48} />
        {hazards.signal_word && (
          <Badge size="lg" color={hazards.signal_word === 'Danger' ? 'red.9' : 'orange.9'} data-testid="signal-word">
            {hazards.signal_word}
          </Badge>
        )}
      </Group>
      <List size="sm" spacing={2} data-testid="hazard-statements">
        {hazards.statements.map((s) => (
          <List.Item key={s.code}>
            <Text span fw={600} size="sm">
              {s.code}
            </Text>{' '}
            {s.text}
          </List.Item>
        ))}
      </List>
      <Text size="xs" c="dimmed">
        {hazards.classes.map((k) => `${k.name} (${categoryText(k)})`).join(' · ')}
      </Text>
    </Stack>
  );
}
