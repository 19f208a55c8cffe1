import type { components } from '@labstock/client';
import { Button, Group, List, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Fields';

type Lab = components['schemas']['OrganizationLab'];

/**
 * A lab's members: who sees it (docs/product.md §3; org admins see every lab anyway), with their lab role
 * (docs/ordering.md), changed on the lab's settings page (web/src/pages/LabSettings.tsx). The people to add come from
 * the organization's first 100 active members.
 */
export function LabMembers({ lab }: { lab: Lab }) {
  const queryClient = useQueryClient();
  const [userId, setUserId] = useState<string | null>(null);
  const key = ['lab-members', lab.id];
  const members = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/organization/labs/{id}/members', { params: { path: { id: lab.id } } })),
  });
  const people = useQuery({
    queryKey: ['organization-users', 'all'],
    queryFn: () => unwrap(api.GET('/organization/users', { params: { query: { per_page: 100 } } })),
  });
  const add = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST('/organization/labs/{id}/members', { params: { path: { id: lab.id } }, body: { user_id: id } })),
    onSuccess: (list) => {
      setUserId(null);
      queryClient.setQueryData(key, list);
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/organization/labs/{id}/members/{userId}', { params: { path: { id: lab.id, userId: id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const inLab = new Set(members.data?.map((m) => m.id));
  const choices = (people.data ?? [])
    .filter((p) => p.deactivated_at === null && !inLab.has(p.id))
    .map((p) => ({ value: p.id, label: `${p.first_name} ${p.last_name} (${p.email})` }));
  return (
    <Stack gap="xs" data-testid={`lab-members-${lab.id}`}>
      <Title order={4}>Members of {lab.name}</Title>
      {members.isError && <ErrorNotice error={members.error} />}
      {members.isPending && <Loading label={`Loading the members of ${lab.name}`} size="sm" />}
      {members.data && members.data.length === 0 && <Text c="dimmed">Nobody yet (org admins see every lab).</Text>}
      {members.data && members.data.length > 0 && (
        <List listStyleType="none" spacing={4}>
          {members.data.map((m) => (
            <List.Item key={m.id}>
              <Group gap="xs">
                <Text size="sm">
                  {m.first_name} {m.last_name} · {m.email} · {m.role}
                </Text>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  loading={remove.isPending && remove.variables === m.id}
                  onClick={() => remove.mutate(m.id)}
                  aria-label={`Remove ${m.first_name} ${m.last_name} from ${lab.name}`}
                >
                  Remove
                </Button>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      <Group align="end">
        <Select
          label={`Add a person to ${lab.name}`}
          placeholder={people.isPending ? 'Loading people…' : 'Choose a person'}
          data={choices}
          value={userId}
          onChange={setUserId}
          searchable
          nothingFoundMessage="Nobody else to add"
          w={320}
        />
        <Button disabled={!userId} loading={add.isPending} onClick={() => userId && add.mutate(userId)}>
          Add to lab
        </Button>
      </Group>
      {people.isError && <ErrorNotice error={people.error} title="The organization's people could not be loaded" />}
      {add.isError && <ErrorNotice error={add.error} title="Not added" />}
      {remove.isError && <ErrorNotice error={remove.error} title="Not removed" />}
    </Stack>
  );
}
