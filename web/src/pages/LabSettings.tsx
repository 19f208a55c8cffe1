import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { LabstockError } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { ApprovalRule } from '../components/lab-settings/ApprovalRule';
import { InventoryFile } from '../components/lab-settings/InventoryFile';
import { LabRoles } from '../components/lab-settings/LabRoles';
import { OverBudget } from '../components/lab-settings/OverBudget';
import { SafetySettings } from '../components/lab-settings/SafetySettings';
import { SpendCodes } from '../components/lab-settings/SpendCodes';
import { useApprovalSettings, useLab } from '../data/hooks';
import { NotFoundPage } from './NotFound';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /app/labs/{id}/settings: a lab's roles, approval rule, spend tracking codes and over-budget setting
 * (docs/ordering.md), its storage safety settings (docs/safety.md), and the way to its inventory's CSV import and
 * export (docs/csv.md), for its managers and the organization's admins (who act as managers in every lab). The lab's
 * approval settings say the caller's role (`my_role`), so one call decides what the page offers; the server refuses
 * anyone else's changes with 403 anyway.
 */
export function LabSettingsPage() {
  const id = useParams().id ?? '';
  const lab = useLab(id, { enabled: UUID.test(id) });
  const settings = useApprovalSettings(id, { enabled: UUID.test(id) });
  const missing = (err: unknown) => err instanceof LabstockError && err.status === 404;
  if (!UUID.test(id) || missing(lab.error) || missing(settings.error)) return <NotFoundPage what="lab" />;
  if (lab.isError) return <ErrorNotice error={lab.error} />;
  if (settings.isError) return <ErrorNotice error={settings.error} />;
  if (lab.isPending || settings.isPending) return <Loading label="Loading the lab's settings" />;
  if (settings.data.my_role !== 'manager') {
    return (
      <Stack gap="xs" data-testid="not-allowed">
        <Title order={2}>Not allowed</Title>
        <Text>Only the managers of {lab.data.name} and the organization's admins change its settings.</Text>
        <Anchor component={Link} to="/labs">
          Back to your labs
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack gap="xl">
      <Stack gap={4}>
        <Title order={2}>Settings of {lab.data.name}</Title>
        <Text size="sm">
          Who does what in the lab, which order requests need approval, what each spend tracking code may spend, what storage safety
          refuses, and the inventory as a spreadsheet.
        </Text>
      </Stack>
      <LabRoles labId={id} labName={lab.data.name} />
      <ApprovalRule labId={id} settings={settings.data} />
      <SpendCodes labId={id} />
      <OverBudget labId={id} />
      <SafetySettings labId={id} />
      <InventoryFile labId={id} labName={lab.data.name} />
    </Stack>
  );
}
