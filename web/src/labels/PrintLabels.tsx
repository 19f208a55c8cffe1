import { Button, Group, Popover, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorNotice } from '../components/ErrorNotice';
import { downloadLabels, type PrintRequest, useLabelLayouts } from '../data/labels';

// "Print labels" wherever there is something to label (docs/labels.md): a stock to print on, PDF or a Zebra printer's
// file, and a download. Printing changes nothing on the server; the button is still off while a file is on its
// way, so a double-click downloads once.

export type Selection = Omit<PrintRequest, 'format' | 'layout'>;

const LAST_LAYOUT = 'labstock:label-layout';
const LAST_FORMAT = 'labstock:label-format';

export function PrintLabels({
  selection,
  children = 'Print labels',
  size = 'sm',
}: {
  selection: Selection;
  children?: string;
  size?: 'xs' | 'sm';
}) {
  const [opened, setOpened] = useState(false);
  const layouts = useLabelLayouts();
  const [layout, setLayout] = useState<PrintRequest['layout']>(
    () => (localStorage.getItem(LAST_LAYOUT) as PrintRequest['layout']) ?? 'sheet-30',
  );
  const [format, setFormat] = useState<PrintRequest['format']>(
    () => (localStorage.getItem(LAST_FORMAT) as PrintRequest['format']) ?? 'pdf',
  );
  const print = useMutation({
    mutationFn: () => downloadLabels({ ...selection, layout, format }),
    onSuccess: () => {
      localStorage.setItem(LAST_LAYOUT, layout);
      localStorage.setItem(LAST_FORMAT, format);
    },
  });
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withinPortal trapFocus shadow="md">
      <Popover.Target>
        <Button variant="default" size={size} onClick={() => setOpened((o) => !o)}>
          {children}
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw={340} data-testid="print-labels">
        <Stack gap="xs">
          <Select
            label="Label stock"
            data={(layouts.data ?? []).map((l) => ({ value: l.name, label: l.title }))}
            value={layout}
            onChange={(v) => v && setLayout(v as PrintRequest['layout'])}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
          />
          <Text size="xs" c="dimmed">
            {layouts.data?.find((l) => l.name === layout)?.description}
          </Text>
          <SegmentedControl
            aria-label="File for"
            value={format}
            onChange={(v) => setFormat(v as PrintRequest['format'])}
            data={[
              { value: 'pdf', label: 'PDF' },
              { value: 'zpl', label: 'Zebra printer' },
            ]}
          />
          {print.isError && <ErrorNotice error={print.error} title="No labels" />}
          {print.isSuccess && (
            <Text size="xs" data-testid="labels-downloaded">
              Downloaded {print.data}.
            </Text>
          )}
          <Group justify="flex-end">
            <Button onClick={() => print.mutate()} loading={print.isPending} disabled={print.isPending}>
              Download
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** A code as people read it: in a monospace font, grouped 5 + 5 so it can be read aloud. */
export function CodeText({ code }: { code: string }) {
  return (
    <Text component="span" ff="monospace" fw={600} data-testid="label-code" aria-label={`Label code ${code}`}>
      {code.slice(0, 5)} {code.slice(5)}
    </Text>
  );
}
