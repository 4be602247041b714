import { Link } from 'react-router';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { isApiError } from '#client/lib/api-client.ts';
import { ErrorAlert } from './error-alert.tsx';

/**
 * Why one record (a client, a server, a credential) cannot be shown: not found, with the way
 * back to its list, or another failure with Retry.
 */
export function RecordUnavailable({
  error,
  onRetry,
  noun,
  gone,
  back,
  heading,
  notFound = false,
}: {
  error: unknown;
  onRetry: () => void;
  /** 'client', 'server', 'credential'. */
  noun: string;
  /** How it went away: 'deleted' or 'removed'. */
  gone: string;
  back: { to: string; label: string };
  heading: { order: 1 | 3; size: 'h2' | 'h3' };
  /** Known not to exist without a 404: the address cannot name one at all. */
  notFound?: boolean;
}) {
  // A read of one record refused with 400 refused its id: no record can have that address.
  const missing = notFound || isApiError(error, 404) || isApiError(error, 400);
  if (!missing) {
    return <ErrorAlert title={`Could not load this ${noun}`} error={error} onRetry={onRetry} />;
  }
  const title = `${noun[0]!.toUpperCase()}${noun.slice(1)} not found`;
  return (
    <Stack gap="xs">
      <Title order={heading.order} size={heading.size}>
        {title}
      </Title>
      <Text c="dimmed">
        There is no {noun} at this address. It may have been {gone}, or the link is wrong.
      </Text>
      <Anchor component={Link} to={back.to}>
        {back.label}
      </Anchor>
    </Stack>
  );
}
