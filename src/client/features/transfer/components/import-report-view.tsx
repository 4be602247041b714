import { Alert, Stack, Table, Text } from '@mantine/core';
import type { ImportProblem, ImportReport } from '#shared/client-transfer.ts';
import { VisibleText } from '#client/components/visible-text.tsx';

/** How many problems of a kind are listed; the rest are counted. */
const LISTED = 10;

export const count = (n: number) => n.toLocaleString('en-US');

/** A dry run's (or a refused import's) findings: counts, then the first documents with problems. */
export function ImportReportView({ report }: { report: ImportReport }) {
  const rows: [string, number][] = [
    ['New clients', report.created],
    ['Updated (same id)', report.updated],
    ['Unchanged', report.unchanged],
    ['Invalid', report.invalid.length],
    // Only a version 2 file with secrets adds any: older files leave the summary as it was.
    ...(report.credentialsCreated > 0
      ? [['Credentials added to the vault', report.credentialsCreated] as [string, number]]
      : []),
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
          <ProblemTable label="Invalid documents" problems={report.invalid} />
        </Alert>
      )}
      {report.warnings.length > 0 && (
        <Alert color="yellow" title="Imported with less than the file says">
          <ProblemTable label="Import warnings" problems={report.warnings} />
        </Alert>
      )}
    </Stack>
  );
}

function ProblemTable({ label, problems }: { label: string; problems: readonly ImportProblem[] }) {
  return (
    <Stack gap="xs">
      <Table aria-label={label} fz="xs" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Document</Table.Th>
            <Table.Th>Id</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {problems.slice(0, LISTED).map((problem, n) => (
            // One document may have several warnings: its index alone is not a key.
            <Table.Tr key={`${problem.index}-${n}`}>
              <Table.Td>{problem.index}</Table.Td>
              {/* Ids and reasons come from the file: a bidi character would disguise them. */}
              <Table.Td style={{ wordBreak: 'break-all' }}>
                {problem.id === undefined ? '—' : <VisibleText text={problem.id} />}
              </Table.Td>
              <Table.Td>
                <VisibleText text={problem.reason} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {problems.length > LISTED && (
        <Text size="xs">
          … and {count(problems.length - LISTED)} more. Documents are numbered from 0 in the order
          of the file.
        </Text>
      )}
    </Stack>
  );
}
