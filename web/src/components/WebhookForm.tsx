import { Button, Group, List, Select, Stack, Switch, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { LabstockError } from '../api';
import { useLabs } from '../data/hooks';
import { useSession } from '../session';
import { ErrorNotice } from './ErrorNotice';
import { EventTypePicker, shortEventType } from './EventTypePicker';

export interface WebhookFormValues {
  name: string;
  url: string;
  /** Short kinds (`inventory-item.updated`); [] is every event. */
  event_types: string[];
  is_signed: boolean;
  /** Create only: a lab's id, or '' for the whole organization. */
  lab_id: string;
}

const ORGANIZATION = 'organization';

/**
 * A webhook's settings, to create one or to change one. The scope (a lab or the whole organization) is chosen at
 * creation only: the API's PUT /webhooks/{id} does not move a webhook (src/webhooks/routes.ts).
 */
export function WebhookForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: { name: string | null; url: string; event_types: string[]; is_signed: boolean };
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: WebhookFormValues) => void;
  onCancel?: () => void;
}) {
  const creating = initial === undefined;
  const { organization } = useSession();
  const [name, setName] = useState(initial?.name ?? '');
  const [url, setUrl] = useState(initial?.url ?? '');
  const [eventTypes, setEventTypes] = useState<string[]>(initial?.event_types.map(shortEventType) ?? []);
  const [every, setEvery] = useState(eventTypes.length === 0);
  const [signed, setSigned] = useState(initial?.is_signed ?? true);
  const [scope, setScope] = useState<string>(ORGANIZATION);
  const labs = useLabs({ enabled: creating });

  const complete = url.trim() !== '' && (every || eventTypes.length > 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A second click while the first is on its way is not a second webhook (the caller's useSubmission also ignores it).
    if (!complete || pending) return;
    onSubmit({
      name: name.trim(),
      url: url.trim(),
      event_types: every ? [] : eventTypes,
      is_signed: signed,
      lab_id: scope === ORGANIZATION ? '' : scope,
    });
  };

  return (
    <form onSubmit={submit}>
      <Stack>
        <Group align="start" grow wrap="wrap">
          <TextInput label="Name" placeholder="e.g. ELN sync" value={name} onChange={(e) => setName(e.currentTarget.value)} miw={200} />
          <TextInput
            label="Receiver URL"
            placeholder="https://example.org/hooks/labstock"
            required
            type="url"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            miw={280}
          />
        </Group>
        {creating && (
          <Select
            label="Events of"
            description="A lab's webhook receives that lab's events; an organization's receives every lab's."
            data={[
              { value: ORGANIZATION, label: `The whole organization (${organization.name})` },
              ...(labs.data ?? []).map((lab) => ({ value: lab.id, label: `Lab: ${lab.name}` })),
            ]}
            value={scope}
            onChange={(value) => setScope(value ?? ORGANIZATION)}
            allowDeselect={false}
            maw={420}
          />
        )}
        {labs.isError && <ErrorNotice error={labs.error} title="The labs did not load" />}
        <EventTypePicker every={every} onEveryChange={setEvery} value={eventTypes} onChange={setEventTypes} />
        <Switch
          label="Sign deliveries (Standard Webhooks headers, with the signing key)"
          checked={signed}
          onChange={(e) => setSigned(e.currentTarget.checked)}
        />
        {error ? <ErrorNotice error={error} title={creating ? 'No webhook created' : 'Not saved'} /> : null}
        {error instanceof LabstockError && error.errors.length > 0 && (
          <List size="sm" c="red.9" data-testid="field-errors">
            {error.errors.map((e) => (
              <List.Item key={`${e.field}:${e.message}`}>
                {e.field}: {e.message}
              </List.Item>
            ))}
          </List>
        )}
        <Group>
          <Button type="submit" loading={pending} disabled={!complete}>
            {submitLabel}
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** The create body: a lab's webhook or the organization's (the API wants exactly one of the two ids). */
export function createBody(values: WebhookFormValues, organizationId: string) {
  return {
    ...(values.lab_id ? { lab_id: values.lab_id } : { organization_id: organizationId }),
    ...(values.name ? { name: values.name } : {}),
    url: values.url,
    event_types: values.event_types,
    is_signed: values.is_signed,
  };
}
