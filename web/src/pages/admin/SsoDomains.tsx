import type { components } from '@labstock/client';
import { Badge, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Fields';
import { keyOf } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';

type Domain = components['schemas']['SsoDomain'];
export const DOMAINS_KEY = keyOf('/organization/sso/domains');

/**
 * The allowed domains' claims: a domain routes sign-in by e-mail and gets its people accounts only once proved
 * (docs/auth.md, Single sign-on, Domains), so the admin needs the TXT record to publish and a way to check it.
 */
export function SsoDomains() {
  const domains = useQuery({ queryKey: DOMAINS_KEY, queryFn: () => unwrap(api.GET('/organization/sso/domains')) });
  if (domains.isError) return <ErrorNotice error={domains.error} />;
  if (domains.isPending) return <Loading label="Loading the domains" />;
  if (domains.data.length === 0) return null;
  return (
    <Stack gap="sm" maw={720} aria-label="Domains">
      <Title order={3}>Domains</Title>
      <Text size="sm">
        Prove each domain is yours by publishing a DNS TXT record, then check it here. Your installation's operator can also approve a
        domain.
      </Text>
      {domains.data.map((d) => (
        <DomainCard key={d.domain} domain={d} />
      ))}
    </Stack>
  );
}

function DomainCard({ domain }: { domain: Domain }) {
  const queryClient = useQueryClient();
  const check = useSubmission({
    name: `verify-domain-${domain.domain}`,
    renewOnSuccess: true,
    send: (_vars, key) =>
      unwrap(
        api.POST('/organization/sso/domains/{domain}/verify', { params: { path: { domain: domain.domain } }, headers: idempotent(key) }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DOMAINS_KEY }),
  });
  const verified = domain.status === 'verified';
  return (
    <Paper withBorder p="sm" data-testid={`sso-domain-${domain.domain}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap">
          <Text fw={600}>{domain.domain}</Text>
          <Badge variant="dot" color={verified ? 'green' : 'yellow'} w="max-content">
            {verified ? 'Verified' : 'Waiting for its DNS record'}
          </Badge>
        </Group>
        {verified ? (
          <Text size="sm" c="dimmed">
            {domain.verified_by === 'operator' ? 'Approved by your operator' : 'Proved by its DNS record'}
            {domain.verified_at ? ` on ${new Date(domain.verified_at).toLocaleDateString()}` : ''}.
          </Text>
        ) : (
          <>
            <Text size="sm">Publish a TXT record named</Text>
            <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {domain.txt_name}
            </Code>
            <Text size="sm">with the value</Text>
            <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {domain.txt_value}
            </Code>
            {check.isError && (
              // The refusal names the record and its long value: wrapped anywhere, so a phone shows all of it.
              <div style={{ overflowWrap: 'anywhere' }}>
                <ErrorNotice error={check.error} title="Not verified yet" />
              </div>
            )}
            <Group>
              <Button variant="light" loading={check.isPending} onClick={() => check.submit()}>
                Check {domain.domain} now
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
