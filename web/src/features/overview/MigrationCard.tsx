import { Alert, Box, Button, Flex, Heading, Input, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { Fragment, useEffect, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { SectionCard } from '../../components/SectionCard';
import { useTexts } from '../../i18n';
import { ApiError, errorText } from '../../lib/api';
import { sectionPath } from '../../shell/sections';
import { RunProgress } from '../runs/RunBits';
import { useRun, useRunEvents } from '../runs/queries';
import type { RunView } from '../runs/api';
import { isActive } from '../runs/model';
import type { ImportCheck, ImportResult, TableImportView } from './api';
import { ExportDialog, NOT_A_SIGN_IN } from './ExportDialog';
import { exportTimeOf, hasWork, inReadingOrder, INVALID_MIGRATION_FILE, isEncrypted, parseMigrationFile, tableCountOf, totalsOf, type MigrationFile } from './migration';
import { useCheckImport, useExportDatabase, useOpenEncryptedFile, useRefreshAll, useStartImport, type ExportChoice } from './mutations';

/** A failure shown in the card until the next action: its title and the server's words. */
interface Problem {
  title: string;
  description: string;
}

/** An encrypted file chosen for import, waiting for its passphrase. */
interface Locked {
  fileName: string;
  file: MigrationFile;
}

/** A file read and checked by a dry run, waiting for Import or Cancel. */
interface Review {
  fileName: string;
  file: MigrationFile;
  check: ImportCheck;
}

/** The rows of a results table at most this high, then they scroll in their own box. */
const TABLE_MAX_H = '80';

/**
 * Document 1 §2 "Database migration card", §5, §8 (docs/database-export.md): Export downloads
 * every service's data as one file; Import reads a file, shows what a dry run says it would do
 * per table, and applies it only when confirmed.
 */
export default function MigrationCard() {
  const { t } = useTexts();
  const picker = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [review, setReview] = useState<Review | null>(null);
  const [locked, setLocked] = useState<Locked | null>(null);
  const [choosingExport, setChoosingExport] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  // The import is a run of the gateway's: followed here until it ends, as Background work shows it.
  const [importRunId, setImportRunId] = useState<string | null>(null);
  const importRun = useImportRun(importRunId, {
    onCompleted: setResult,
    onFailed: (description) => setProblem({ title: t('overview.migration.importFailed'), description }),
    onCancelled: () => setProblem({ title: t('overview.migration.cancelled'), description: t('overview.migration.cancelledNote') }),
  });

  const importFailed = (error: Error) => setProblem(importProblem(error, t));
  const exporting = useExportDatabase({
    onError: (error) => setProblem({ title: t('overview.migration.exportFailed'), description: errorText(error, error.message) }),
  });
  const checking = useCheckImport({ onError: importFailed });
  const opening = useOpenEncryptedFile();
  const importing = useStartImport({
    onError: importFailed,
    onSuccess: (reply) => {
      setReview(null);
      setImportRunId(reply.run.id);
    },
  });
  const running = importRun !== null && isActive(importRun);
  const busy = exporting.isPending || opening.isPending || checking.isPending || importing.isPending || running;

  const startOver = () => {
    setProblem(null);
    setReview(null);
    setLocked(null);
    setResult(null);
    setImportRunId(null);
  };

  const onExport = (choice: ExportChoice) => {
    setChoosingExport(false);
    startOver();
    // The passphrase is not kept once the export has ended (a mutation keeps its variables).
    exporting.mutate(choice, { onSettled: () => exporting.reset() });
  };

  /** The dry run of a file the browser can read (a plain one, or an encrypted one the gateway opened). */
  const check = (fileName: string, file: MigrationFile) => checking.mutate(file, { onSuccess: (result) => setReview({ fileName, file, check: result }) });

  const onOpen = (passphrase: string) => {
    if (!locked) return;
    setProblem(null);
    opening.mutate(
      { file: locked.file, passphrase },
      {
        onSuccess: (file) => {
          setLocked(null);
          check(locked.fileName, file);
        },
        onError: (error) => setProblem({ title: t('overview.migration.cannotOpen'), description: errorText(error, error.message) }),
        onSettled: () => opening.reset(),
      },
    );
  };

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    event.target.value = ''; // the same file may be chosen again (imported twice)
    if (!chosen) return;
    startOver();
    const file = parseMigrationFile(await chosen.text().catch(() => ''));
    if (!file) {
      setProblem({ title: t('overview.migration.invalidFile'), description: t('overview.migration.invalidFormat') });
      return;
    }
    if (isEncrypted(file)) setLocked({ fileName: chosen.name, file });
    else check(chosen.name, file);
  }

  return (
    <SectionCard
      title={t('overview.migrationTitle')}
      subtitle={t('overview.migration.subtitle')}
      testId="migration-card"
      actions={
        <>
          <Button size="sm" variant="outline" onClick={() => setChoosingExport(true)} loading={exporting.isPending} loadingText={t('overview.migration.exporting')} disabled={busy}>
            {t('overview.migration.export')}
          </Button>
          <Button size="sm" colorPalette="blue" onClick={() => picker.current?.click()} disabled={busy}>
            {t('overview.migration.chooseFile')}
          </Button>
          <input
            ref={picker}
            type="file"
            accept=".json,application/json"
            hidden
            aria-label={t('overview.migration.fileLabel')}
            data-testid="migration-file"
            onChange={(event) => void onPick(event)}
          />
        </>
      }
    >
      <Stack gap="4">
        {problem && <ErrorAlert title={problem.title} description={problem.description} testId="migration-error" />}
        {locked && <PassphrasePanel locked={locked} opening={opening.isPending} onOpen={onOpen} onCancel={startOver} />}
        {checking.isPending && <Progress text={t('overview.migration.checking')} />}
        {review && (
          <CheckPanel
            review={review}
            importing={importing.isPending}
            onImport={() => {
              setProblem(null);
              importing.mutate(review.file);
            }}
            onCancel={startOver}
          />
        )}
        {(importing.isPending || running) && <Progress text={t('overview.migration.importing')} run={running ? importRun : null} />}
        {result && <ResultPanel result={result} onClose={() => setResult(null)} />}
      </Stack>
      {choosingExport && <ExportDialog onExport={onExport} onClose={() => setChoosingExport(false)} />}
    </SectionCard>
  );
}

/**
 * Follows the import's run (its event stream, and its answer for the result) and says once how it
 * ended; every query on screen is asked for again then, since the import may have changed them all.
 */
function useImportRun(
  id: string | null,
  on: { onCompleted: (result: ImportResult) => void; onFailed: (error: string) => void; onCancelled: () => void },
): RunView | null {
  const { t } = useTexts();
  const run = useRun(id).data ?? null;
  const active = run === null || isActive(run);
  useRunEvents(id, id !== null && active);
  const refreshAll = useRefreshAll();
  const told = useRef<string | null>(null);
  useEffect(() => {
    if (!run || run.id !== id || isActive(run) || told.current === run.id) return;
    // The final answer carries the result: a completed run's event may come before it.
    if (run.status === 'completed' && !run.result) return;
    told.current = run.id;
    if (run.status === 'completed') on.onCompleted(run.result as ImportResult);
    else if (run.status === 'failed') on.onFailed(run.lastError ?? t('overview.migration.importFailed'));
    else on.onCancelled();
    refreshAll();
  }, [run, id, on, refreshAll, t]);
  return run && run.id === id ? run : null;
}

/** A 400 about the file's shape is the file's fault ('Invalid File'); anything else is the import's. */
function importProblem(error: Error, t: ReturnType<typeof useTexts>['t']): Problem {
  const message = errorText(error, error.message);
  if (error instanceof ApiError && error.status === 400 && message.startsWith(INVALID_MIGRATION_FILE)) {
    // The spec's text in the language in use, then what the gateway found (': no service x here', each field's complaint).
    const found = message.slice(INVALID_MIGRATION_FILE.length).replace(/^:\s*/, '');
    return { title: t('overview.migration.invalidFile'), description: [t('overview.migration.invalidFormat'), ...(found ? [found] : []), ...detailsOf(error)].join(' · ') };
  }
  return { title: t('overview.migration.importFailed'), description: message };
}

/** The gateway's `details` of a 400 ('data.pricing: Expected object'), when it sent some. */
function detailsOf(error: ApiError): string[] {
  try {
    const { details } = JSON.parse(error.body) as { details?: { field?: unknown; message?: unknown }[] };
    return Array.isArray(details) ? details.map((detail) => `${String(detail.field)}: ${String(detail.message)}`) : [];
  } catch {
    return [];
  }
}

/** A spinner and what is under way; an import's run adds its bar (services done of all, rows added, updated and failed) and a link to it in Background work. */
function Progress({ text, run }: { text: string; run?: RunView | null }) {
  const { t } = useTexts();
  return (
    <Stack gap="2" data-testid="migration-progress">
      <Flex gap="3" align="center" role="status">
        <Spinner size="sm" />
        <Text>{text}</Text>
        {run && (
          <Link asChild fontSize="sm" colorPalette="blue" variant="underline" ms="auto">
            <RouterLink to={sectionPath('background-work', { run: run.id })} data-testid="migration-run-details">{t('overview.migration.runDetails')}</RouterLink>
          </Link>
        )}
      </Flex>
      {run && <RunProgress run={run} wide />}
    </Stack>
  );
}

/** An encrypted file: its passphrase, then Open (the gateway opens it; a wrong one is said above, and the passphrase may be typed again). */
function PassphrasePanel({ locked, opening, onOpen, onCancel }: { locked: Locked; opening: boolean; onOpen: (passphrase: string) => void; onCancel: () => void }) {
  const { t } = useTexts();
  const [passphrase, setPassphrase] = useState('');
  return (
    <Stack gap="3" data-testid="migration-locked">
      <Stack gap="1">
        <Heading as="h3" size="sm">{t('overview.migration.lockedTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted" wordBreak="break-word">{t('overview.migration.lockedHelp', { file: locked.fileName })}</Text>
      </Stack>
      <Form onSubmit={() => passphrase && onOpen(passphrase)} maxW="md">
        <FormField label={t('overview.migration.passphrase')} required>
          <Input name="passphrase" type="password" value={passphrase} onChange={(event) => setPassphrase(event.target.value)} maxLength={1024} {...NOT_A_SIGN_IN} autoFocus />
        </FormField>
        <Flex gap="2" wrap="wrap">
          <Button size="sm" colorPalette="blue" type="submit" loading={opening} disabled={!passphrase}>{t('overview.migration.open')}</Button>
          <Button size="sm" variant="outline" onClick={onCancel} disabled={opening}>{t('common.cancel')}</Button>
        </Flex>
      </Form>
    </Stack>
  );
}

/** The dry run: the file, what would happen per table (tables with nothing to do folded away), Import or Cancel. */
function CheckPanel({ review, importing, onImport, onCancel }: { review: Review; importing: boolean; onImport: () => void; onCancel: () => void }) {
  const { t, format } = useTexts();
  const [showAll, setShowAll] = useState(false);
  const { file, fileName, check } = review;
  const totals = totalsOf(check.results);
  const ordered = inReadingOrder(check.results);
  const working = ordered.filter(hasWork);
  const quiet = ordered.length - working.length;
  const time = exportTimeOf(file);
  const columns: Column<TableImportView>[] = [
    tableColumn(t('overview.migration.col.table')),
    countColumn('added', t('overview.migration.col.added'), (row) => row.added, 'green.600', format.number),
    countColumn('updated', t('overview.migration.col.updated'), (row) => row.updated, 'blue.600', format.number),
    countColumn('unchanged', t('overview.migration.col.unchanged'), (row) => row.unchanged, undefined, format.number),
    countColumn('failed', t('overview.migration.col.refused'), (row) => row.failed, 'red.600', format.number),
  ];
  return (
    <Stack gap="3" data-testid="migration-check">
      <Stack gap="1">
        <Heading as="h3" size="sm">{t('overview.migration.reviewTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted" wordBreak="break-word" data-testid="migration-file-summary">
          {t('overview.migration.fileSummary', { file: fileName, time: time ? format.dateTime(time) : file.metadata.exportTimestamp, count: tableCountOf(file) })}
        </Text>
        <Text fontSize="sm" data-testid="migration-check-totals">
          {working.length === 0 ? t('overview.migration.nothingToDo') : t('overview.migration.checkTotals', totals)}
        </Text>
        {totals.failed > 0 && <Text fontSize="sm" color="red.600">{t('overview.migration.refusedNote')}</Text>}
      </Stack>
      {(working.length > 0 || showAll) && (
        <DataTable
          columns={columns}
          rows={showAll ? ordered : working}
          rowKey={(row) => row.table}
          rowProps={(row) => ({ 'data-table': row.table })}
          caption={t('overview.migration.checkCaption')}
          testId="migration-check-table"
          maxH={TABLE_MAX_H}
        />
      )}
      {quiet > 0 && (
        <Button size="xs" variant="ghost" alignSelf="flex-start" onClick={() => setShowAll((shown) => !shown)} aria-expanded={showAll}>
          {showAll ? t('overview.migration.hideUnchanged') : t('overview.migration.showUnchanged', { tables: quiet })}
        </Button>
      )}
      <Flex gap="2" wrap="wrap">
        <Button size="sm" colorPalette="blue" onClick={onImport} loading={importing}>{t('overview.migration.import')}</Button>
        <Button size="sm" variant="outline" onClick={onCancel} disabled={importing}>{t('common.cancel')}</Button>
      </Flex>
    </Stack>
  );
}

/** The import's answer: 'Import Completed' or 'Import Completed with Errors', and every table's success and failed counts. */
function ResultPanel({ result, onClose }: { result: ImportResult; onClose: () => void }) {
  const { t, format } = useTexts();
  const totals = totalsOf(result.results);
  const failed = !result.success || totals.failed > 0;
  const columns: Column<TableImportView>[] = [
    tableColumn(t('overview.migration.col.table')),
    countColumn('success', t('overview.migration.col.success'), (row) => row.success, undefined, format.number),
    countColumn('failed', t('overview.migration.col.failed'), (row) => row.failed, 'red.600', format.number),
  ];
  return (
    <Stack gap="3" data-testid="migration-result">
      <Alert.Root status={failed ? 'warning' : 'success'}>
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{failed ? t('overview.migration.completedWithErrors') : t('overview.migration.completed')}</Alert.Title>
          <Alert.Description>{t('overview.migration.doneTotals', totals)}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      {result.adminsWithoutPassword && result.adminsWithoutPassword.length > 0 && (
        <Alert.Root status="info" data-testid="admins-without-password">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('overview.migration.adminsWithoutPassword')}</Alert.Title>
            <Alert.Description>{t('overview.migration.adminsWithoutPasswordHelp', { names: result.adminsWithoutPassword.join(', ') })}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <DataTable
        columns={columns}
        rows={inReadingOrder(result.results)}
        rowKey={(row) => row.table}
        rowProps={(row) => ({ 'data-table': row.table })}
        caption={t('overview.migration.resultCaption')}
        testId="migration-result-table"
        maxH={TABLE_MAX_H}
      />
      <Button size="sm" variant="outline" alignSelf="flex-start" onClick={onClose}>{t('common.close')}</Button>
    </Stack>
  );
}

/**
 * The table's `<service>.<table>` name (on a phone the table's name goes under its service's, broken
 * after an underscore if need be, so the counts beside it stay in view), and under it the first refusal when there is one.
 */
function tableColumn(header: string): Column<TableImportView> {
  return {
    key: 'table',
    header,
    cell: (row) => {
      const dot = row.table.indexOf('.') + 1;
      return (
        <Stack gap="0.5">
          <Text fontFamily="mono" fontSize="xs">
            <Box as="span" display="inline-block" whiteSpace="nowrap">{row.table.slice(0, dot)}</Box>
            <Box as="span" display="inline-block">{breakable(row.table.slice(dot))}</Box>
          </Text>
          {row.failed > 0 && row.errors[0] && <Text fontSize="xs" color="red.600" data-testid="first-error">{row.errors[0]}</Text>}
        </Stack>
      );
    },
    cellProps: { maxW: { base: '64', md: 'md' }, whiteSpace: 'normal' },
  };
}

/** A table's name that may break after its underscores (and nowhere else) when the column is narrow. */
function breakable(name: string): ReactNode {
  return name.split('_').map((part, index, parts) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && (
        <>
          _<wbr />
        </>
      )}
    </Fragment>
  ));
}

/** A count, right-aligned; in colour when not zero. */
function countColumn(key: string, header: string, count: (row: TableImportView) => number, colour: string | undefined, number: (value: number) => string): Column<TableImportView> {
  return {
    key,
    header,
    cell: (row) => (
      <Text as="span" color={count(row) > 0 ? colour : 'fg.muted'} fontWeight={count(row) > 0 && colour ? 'semibold' : undefined}>
        {number(count(row))}
      </Text>
    ),
    // On a phone 'Would update' takes two lines rather than pushing the counts out of view.
    headerProps: { textAlign: 'end', whiteSpace: { base: 'normal', md: 'nowrap' } },
    cellProps: { textAlign: 'end' },
  };
}
