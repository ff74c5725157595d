import { Badge, Flex, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { useTexts } from '../../i18n';
import type { RunView } from './api';
import { durationParts, progressShape, runDurationMs, startedByOf, statusBadge } from './model';

/** The run's status as a coloured badge ('Cancelling' while a cancel is on its way). */
export function StatusBadge({ run }: { run: Pick<RunView, 'status' | 'cancelRequested'> }) {
  const { t } = useTexts();
  const { tone, palette } = statusBadge(run);
  return (
    <Badge colorPalette={palette} data-testid="run-status" data-status={tone} whiteSpace="nowrap">
      {t(`runs.status.${tone}`)}
    </Badge>
  );
}

/**
 * How far the run is: a bar of current of total (moving without a figure while the total is not
 * known), the figures, and the run's named counters in small type beside it.
 */
export function RunProgress({ run, wide = false }: { run: Pick<RunView, 'status' | 'progress' | 'kind' | 'cancelRequested'>; wide?: boolean }) {
  const { t, format } = useTexts();
  const shape = progressShape(run);
  const { current, total, counters } = run.progress;
  const figures =
    total === null ? t('runs.progress.count', { current: format.number(current) }) : t('runs.progress.ofTotal', { current: format.number(current), total: format.number(total) });
  const counted = Object.entries(counters);
  return (
    <Stack gap="1" minW={wide ? undefined : '32'} maxW={wide ? undefined : '60'} data-testid="run-progress" data-percent={shape.percent ?? ''}>
      {shape.bar && (
        <Progress.Root
          size="sm"
          value={shape.indeterminate ? null : (shape.percent ?? 0)}
          max={100}
          colorPalette={statusBadge(run).palette}
        >
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
      <Flex gap="2" align="baseline" wrap="wrap">
        <Text fontSize="sm" fontVariantNumeric="tabular-nums" whiteSpace="nowrap" data-testid="run-figures">
          {figures}
          {shape.percent !== null && total !== null && ` (${shape.percent}%)`}
        </Text>
        {counted.length > 0 && (
          <HStack gap="2" wrap="wrap" data-testid="run-counters">
            {counted.map(([name, value]) => (
              <Text key={name} as="span" fontSize="xs" color="fg.muted" whiteSpace="nowrap">
                {name} {format.number(value)}
              </Text>
            ))}
          </HStack>
        )}
      </Flex>
    </Stack>
  );
}

/** Start to end, or to now while the run moves (`now` ticks each second then); nothing before it starts. */
export function Duration({ run, now }: { run: Pick<RunView, 'status' | 'startedAt' | 'completedAt'>; now: number }) {
  const { t } = useTexts();
  const ms = runDurationMs(run, now);
  if (ms === null) return <Text as="span" color="fg.muted">—</Text>;
  const parts = durationParts(ms);
  return (
    <Text as="span" fontVariantNumeric="tabular-nums" whiteSpace="nowrap" data-testid="run-duration">
      {t(`runs.duration.${parts.unit}`, parts)}
    </Text>
  );
}

export function useStartedBy(): (startedBy: string) => string {
  const { t } = useTexts();
  return (startedBy) => {
    const { by, name } = startedByOf(startedBy);
    return by === 'other' ? name : t(`runs.startedBy.${by}`, { name });
  };
}
