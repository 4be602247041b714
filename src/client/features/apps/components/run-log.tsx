import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  RUN_END_EVENT,
  RUN_LOG_CAP_BYTES,
  RUN_LOG_CAP_LINES,
  RUN_LOG_EVENT,
  runLogLineSchema,
  runSchema,
  type Run,
  type RunLogLine,
} from '#shared/apps.ts';
import { splitHidden } from '#shared/command-safe-text.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { notifyFailure } from '#client/lib/notify-failure.ts';
import { appKeys, runKeys } from '#client/lib/query-keys.ts';
import { useCan } from '#client/lib/use-can.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { useCancelRun } from '../api/app-mutations.ts';
import { runApiPath, runQuery } from '../api/app-queries.ts';
import { appendPieces, EMPTY_LOG, type LogView } from '../run-log-lines.ts';
import { runFacts } from '../run-look.ts';
import { RunStateBadge } from './run-state-badge.tsx';
import classes from './run-log.module.css';

/** Pieces arriving within this window are drawn together: a chatty build sends hundreds a second. */
const DRAW_EVERY_MS = 50;
/** How near the end (in pixels) still counts as reading the end, so new lines follow. */
const AT_END_SLACK = 24;

const GUTTER = { out: '', err: 'err', system: 'sys' } as const;

function parseJson(data: unknown): unknown {
  try {
    return typeof data === 'string' ? JSON.parse(data) : null;
  } catch {
    return null;
  }
}

/**
 * A run's log from `GET /api/runs/:id/log`: everything written so far, then each new piece as
 * it is written, then the run as it ended. The browser's EventSource resumes after a dropped
 * connection with the last seq it saw; the stream is closed here once the run has ended, or it
 * would reconnect and be answered the whole log again.
 */
function useRunLog(runId: string) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<LogView>(EMPTY_LOG);
  const [ended, setEnded] = useState(false);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const source = new EventSource(runApiPath(runId, '/log'));
    let pending: RunLogLine[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const draw = () => {
      clearTimeout(timer);
      timer = undefined;
      const batch = pending;
      pending = [];
      if (batch.length > 0) setView((current) => appendPieces(current, batch));
    };
    source.addEventListener(RUN_LOG_EVENT, (message) => {
      const parsed = runLogLineSchema.safeParse(parseJson(message.data));
      if (!parsed.success) {
        console.error('Ignoring a malformed piece of a run log', parsed.error);
        return;
      }
      pending.push(parsed.data);
      timer ??= setTimeout(draw, DRAW_EVERY_MS);
    });
    source.addEventListener(RUN_END_EVENT, (message) => {
      source.close();
      draw();
      setEnded(true);
      const parsed = runSchema.safeParse(parseJson(message.data));
      if (parsed.success) queryClient.setQueryData(runKeys.detail(runId), parsed.data);
      void queryClient.invalidateQueries({ queryKey: runKeys.detail(runId) });
      void queryClient.invalidateQueries({ queryKey: appKeys.all });
    });
    source.addEventListener('error', () => {
      // A network drop is retried by the EventSource itself; an HTTP error closes it for good.
      if (source.readyState === EventSource.CLOSED) {
        draw();
        setFailed(true);
      }
    });
    return () => {
      source.close();
      clearTimeout(timer);
    };
  }, [runId, attempt, queryClient]);

  const retry = () => {
    setFailed(false);
    setView(EMPTY_LOG);
    setAttempt((n) => n + 1);
  };
  return { view, ended, failed, retry };
}

/**
 * One run: who started it and when, its state (said politely to screen readers when it
 * changes), Cancel while it runs, the log following its end unless the reader scrolled up, and
 * the whole log as a download. The log's first lines, the tool's own, name the server and the
 * command as shown (secrets masked).
 */
export function RunLog({ runId }: { runId: string }) {
  const run = useQuery(runQuery(runId));
  const log = useRunLog(runId);

  return (
    <Stack gap="sm">
      {run.isError ? (
        <ErrorAlert
          title="Could not load this run"
          error={run.error}
          onRetry={() => void run.refetch()}
        />
      ) : run.data ? (
        <RunSummary run={run.data} />
      ) : null}
      {log.failed ? (
        <ErrorAlert title="Could not load the log" error={null} onRetry={log.retry} />
      ) : (
        <LogBox
          view={log.view}
          runId={runId}
          startedAt={run.data?.startedAt}
          running={!log.ended && (run.data?.state ?? 'running') === 'running'}
        />
      )}
      {run.data?.logTruncated && (
        <Text size="sm" c="dimmed">
          The log was cut at {RUN_LOG_CAP_BYTES / 1024 / 1024} MB or{' '}
          {RUN_LOG_CAP_LINES.toLocaleString('en')} lines; the command ran on after that.
        </Text>
      )}
    </Stack>
  );
}

function RunSummary({ run }: { run: Run }) {
  const mayWrite = useCan('write');
  const cancel = useCancelRun();
  const stopping = run.state === 'running' && run.cancelRequestedAt !== null;
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="sm" align="flex-start">
        <Stack gap={4} miw={0}>
          {/* Announced when it changes: a run ending while someone listens is news. */}
          <Group gap="xs" role="status" aria-live="polite" aria-atomic="true">
            <RunStateBadge state={run.state} />
            <Text size="sm" fw={600}>
              {stopping ? 'Stopping…' : runFacts(run)}
            </Text>
          </Group>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {`Started ${formatDateTime(run.startedAt)} by ${run.startedBy.name}`}
          </Text>
        </Stack>
        <Group gap="xs">
          {mayWrite && run.state === 'running' && (
            <Button
              color="red"
              variant="filled"
              loading={cancel.isPending}
              disabled={stopping}
              onClick={() =>
                cancel.mutate(run, {
                  onError: (error) => notifyFailure('Could not cancel the deploy', error),
                })
              }
            >
              Cancel
            </Button>
          )}
          <Button component="a" variant="default" href={runApiPath(run.id, '/log.txt')} download>
            Download log
          </Button>
        </Group>
      </Group>
      {run.reason && (
        <Alert color="red" title="Why it stopped" p="xs">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {run.reason}
          </Text>
        </Alert>
      )}
    </Stack>
  );
}

function LogBox({
  view,
  runId,
  startedAt,
  running,
}: {
  view: LogView;
  runId: string;
  startedAt: string | undefined;
  running: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  // Read in the layout effect without a render: whether the reader is at the end.
  const following = useRef(true);
  const [scrolledUp, setScrolledUp] = useState(false);

  useLayoutEffect(() => {
    const element = box.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [view]);

  function onScroll() {
    const element = box.current;
    if (!element) return;
    const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END_SLACK;
    following.current = atEnd;
    setScrolledUp(!atEnd);
  }

  function jumpToEnd() {
    const element = box.current;
    if (!element) return;
    following.current = true;
    setScrolledUp(false);
    element.scrollTop = element.scrollHeight;
  }

  const name = startedAt
    ? `Output of the deploy started ${formatDateTime(startedAt)}`
    : `Output of run ${runId}`;
  return (
    <Stack gap={6}>
      <div
        ref={box}
        className={classes.box}
        role="log"
        aria-label={name}
        // The box scrolls: keyboard users reach it to scroll it.
        tabIndex={0}
        onScroll={onScroll}
      >
        {view.dropped > 0 && (
          <div className={classes.note}>
            {`${view.dropped} earlier lines are not shown here: download the log for all of it.`}
          </div>
        )}
        {view.lines.map((line) => (
          <div key={line.key} className={`${classes.line} ${classes[line.stream] ?? ''}`}>
            <span className={classes.gutter}>{GUTTER[line.stream]}</span>
            <span>{line.text === '' ? '\u200b' : <LogText text={line.text} />}</span>
          </div>
        ))}
        {view.lines.length === 0 && (
          <div className={classes.note}>{running ? 'Waiting for output…' : 'No output.'}</div>
        )}
      </div>
      {scrolledUp && (
        <Button
          variant="light"
          size="compact-sm"
          style={{ alignSelf: 'flex-end' }}
          onClick={jumpToEnd}
        >
          Follow the end
        </Button>
      )}
    </Stack>
  );
}

/**
 * A line of output as text, with each control, bidi and zero-width character shown as a
 * `U+001B` mark: the output came from a client's server, and such a character would otherwise
 * act unseen (a bidi control reverses what follows). Tabs stay; terminal sequences were cut out
 * when the log was written.
 */
function LogText({ text }: { text: string }) {
  const parts = splitHidden(text, { keep: '\t', inLine: true });
  if (parts.every((part) => !part.hidden)) return text;
  return parts.map((part, index) =>
    part.hidden ? (
      <mark key={index} className={classes.hidden} aria-label={`hidden character ${part.text}`}>
        {part.text}
      </mark>
    ) : (
      part.text
    ),
  );
}
