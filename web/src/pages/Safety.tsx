import { Anchor, Group, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { type HazardReport, HazardReportView } from '../components/safety-report/HazardReport';
import { useLabs } from '../data/hooks';
import { keyOf } from '../data/keys';

type By = 'location' | 'building' | 'control-area';
const BY: { value: By; label: string }[] = [
  { value: 'location', label: 'Locations' },
  { value: 'building', label: 'Buildings' },
  { value: 'control-area', label: 'Control areas' },
];
const isBy = (v: string | null): v is By => BY.some((b) => b.value === v);

/**
 * The safety office's page (docs/hazard-reports.md): a lab's hazard inventory per location, per building (a top-level
 * location) or per control area with its limits, and the same as CSV and PDF. The lab and the grouping live in the
 * URL, so a link shows the same report.
 */
export function SafetyPage() {
  const [params, setParams] = useSearchParams();
  const labs = useLabs();
  const labId = params.get('lab') || labs.data?.[0]?.id || '';
  const byParam = params.get('by');
  const by: By = isBy(byParam) ? byParam : 'location';
  const set = (next: { lab?: string; by?: By }) => setParams({ lab: next.lab ?? labId, by: next.by ?? by });
  const query = { path: { id: labId }, query: { by } };
  const report = useQuery({
    queryKey: keyOf('/labs/{id}/hazard-report', query),
    enabled: labId !== '',
    queryFn: async (): Promise<HazardReport> => {
      // JSON unless CSV or PDF is asked for: the other two types of the answer are the downloads' links below.
      const body = await unwrap(api.GET('/labs/{id}/hazard-report', { params: query }));
      if (typeof body === 'string') throw new Error('The report came back as a file, not as a page.');
      return body;
    },
  });
  const file = (format: 'csv' | 'pdf') => `/labs/${encodeURIComponent(labId)}/hazard-report?by=${by}&format=${format}`;
  return (
    <Stack>
      <Title order={2}>Safety</Title>
      <Text c="dimmed" size="sm">
        What is stored with a hazard, and how much: each hazard class with its containers. A building is a top-level location; a control
        area shows its limits. Sizes that cannot be read are listed as unknown, never guessed.
      </Text>
      {labs.isError && <ErrorNotice error={labs.error} />}
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      <Group align="end" wrap="wrap">
        <Select
          label="Lab"
          data={(labs.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
          value={labId || null}
          onChange={(value) => value && set({ lab: value })}
          allowDeselect={false}
          searchable
          w={260}
        />
        <div>
          <Text size="sm" fw={500} mb={2}>
            Per
          </Text>
          <SegmentedControl
            data={BY}
            value={by}
            onChange={(value) => isBy(value) && set({ by: value })}
            aria-label="Group the report per"
          />
        </div>
      </Group>
      {labId && (
        <Group gap="md">
          <Anchor href={file('csv')} download>
            Download as CSV
          </Anchor>
          <Anchor href={file('pdf')} download>
            Download as PDF
          </Anchor>
        </Group>
      )}
      {report.isError && <ErrorNotice error={report.error} />}
      {labId && report.isPending && <Loading label="Loading the report" />}
      {report.data && <HazardReportView report={report.data} />}
    </Stack>
  );
}
