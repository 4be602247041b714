import { Alert, Stack, Table, Text } from '@mantine/core';
import type { ImportReport } from '#shared/client-transfer.ts';

/** How many invalid documents are listed; the rest are counted. */
const LISTED = 10;

export const count = (n: number) => n.toLocaleString('en-US');

/** A dry run's (or a refused import's) findings: counts, then the first invalid documents. */
export function ImportReportView({ report }: { report: ImportReport }) {
  const rows: [string, number][] = [
    ['New clients', report.created],
    ['Updated (same id)', report.updated],
    ['Unchanged', report.unchanged],
    ['Invalid', report.invalid.length],
  ];
  return (
    <Stack gap="md">
      <Table aria-label="Import summary" withTableBorder>
        <Table.Tbody>
          {rows.map(([label, n]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={500}>
                {label}
              </Table.Th>
              <Table.Td ta="right">{count(n)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {report.invalid.length > 0 && (
        <Alert color="orange" title="Invalid documents are not imported">
          <Stack gap="xs">
            <Table aria-label="Invalid documents" fz="xs" verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Document</Table.Th>
                  <Table.Th>Id</Table.Th>
                  <Table.Th>Reason</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.invalid.slice(0, LISTED).map((problem) => (
                  <Table.Tr key={problem.index}>
                    <Table.Td>{problem.index}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{problem.id ?? '—'}</Table.Td>
                    <Table.Td>{problem.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {report.invalid.length > LISTED && (
              <Text size="xs">
                … and {count(report.invalid.length - LISTED)} more. Documents are numbered from 0 in
                the order of the file.
              </Text>
            )}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
