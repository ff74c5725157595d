import { Accordion, Badge, Box, Button, Code, Field, Flex, Input, SimpleGrid, Span, Stack, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/Dialog';
import { JsonBlock, LabelledJson } from '../../components/JsonBlock';
import { ListState, SectionCard } from '../../components/SectionCard';
import { useTexts } from '../../i18n';
import { RedirectNotFollowed } from '../../lib/api';
import { notify } from '../../lib/toast';
import type { ApiCall } from './api';
import { MethodBadge } from './MethodBadge';
import { failureDetail, filterCatalogue, isWrite, testRequestOf, type Catalogue as CatalogueData, type CatalogueEndpoint, type CatalogueParameter } from './model';
import { useApiCall } from './mutations';

/** Which Test is under way: the same method and filled path are the same call. */
const callKey = (request: ApiCall | null) => (request ? `${request.method} ${request.path}` : '');

/**
 * The catalogue: every operation the admin may call, by category (one collapsible group each, its
 * operations mounted only while open), with a filter. Test sends an operation's sample request: a
 * GET at once, a write only after a confirmation that shows what it would send.
 */
export function Catalogue({ query }: { query: UseQueryResult<CatalogueData> }) {
  const { t } = useTexts();
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string[]>([]);
  // The write being asked about; kept while the dialog closes, so its text stays as it fades out.
  const [confirming, setConfirming] = useState<{ request: ApiCall; open: boolean } | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const call = useApiCall();
  const all = query.data?.categories ?? [];
  const categories = filterCatalogue(all, filter);

  const changeFilter = (text: string) => {
    setFilter(text);
    // A filter opens every group it finds something in; clearing it closes them all again.
    setOpen(text.trim() ? filterCatalogue(all, text).map((category) => category.name) : []);
  };

  const fire = (request: ApiCall) => {
    setBusy((current) => new Set(current).add(callKey(request)));
    call
      .mutateAsync(request)
      .then(
        ({ status }) => notify({ title: t('apiTools.testStatus', { code: status }), description: t('apiTools.testReceived'), type: 'success' }),
        (error: unknown) => {
          const detail = error instanceof RedirectNotFollowed ? t('apiTools.redirectNotFollowed') : (failureDetail(error) ?? (error as Error).message);
          notify({ title: t('apiTools.testError'), description: [t('apiTools.testFailed', { path: request.path }), detail].filter(Boolean).join('\n'), type: 'error' });
        },
      )
      .finally(() =>
        setBusy((current) => {
          const next = new Set(current);
          next.delete(callKey(request));
          return next;
        }),
      );
  };

  const test = (endpoint: CatalogueEndpoint) => {
    const request = testRequestOf(endpoint);
    if (!request) return;
    if (isWrite(request.method)) setConfirming({ request, open: true });
    else fire(request);
  };

  return (
    <SectionCard title={t('apiTools.catalogue.title')} subtitle={t('apiTools.catalogue.subtitle')} testId="catalogue">
      <ListState query={query} failed={t('apiTools.catalogue.failed')} empty={t('apiTools.catalogue.empty')} count={query.data?.endpoints.length ?? 0}>
        <Stack gap="4">
          <Field.Root maxW={{ md: 'md' }}>
            <Field.Label>{t('apiTools.filter.label')}</Field.Label>
            <Input name="filter" type="search" value={filter} placeholder={t('apiTools.filter.placeholder')} autoComplete="off" onChange={(event) => changeFilter(event.target.value)} />
          </Field.Root>
          {categories.length === 0 && <Text color="fg.muted" data-testid="filter-none">{t('apiTools.filter.none', { text: filter.trim() })}</Text>}
          <Accordion.Root multiple collapsible lazyMount unmountOnExit value={open} onValueChange={(event) => setOpen(event.value)} variant="enclosed">
            {categories.map((category) => (
              <Accordion.Item key={category.name} value={category.name} data-testid="category" data-category={category.name}>
                <Accordion.ItemTrigger>
                  <Span flex="1" fontWeight="semibold">{category.name}</Span>
                  <Badge variant="subtle" data-testid="category-count">{category.endpoints.length}</Badge>
                  <Accordion.ItemIndicator />
                </Accordion.ItemTrigger>
                <Accordion.ItemContent>
                  <Accordion.ItemBody>
                    <Stack as="ul" gap="3">
                      {category.endpoints.map((endpoint) => (
                        <EndpointCard key={endpoint.id} endpoint={endpoint} busy={busy.has(callKey(testRequestOf(endpoint)))} onTest={() => test(endpoint)} />
                      ))}
                    </Stack>
                  </Accordion.ItemBody>
                </Accordion.ItemContent>
              </Accordion.Item>
            ))}
          </Accordion.Root>
        </Stack>
      </ListState>
      {confirming && (
        <ConfirmWrite
          request={confirming.request}
          open={confirming.open}
          onCancel={() => setConfirming({ ...confirming, open: false })}
          onConfirm={() => {
            setConfirming({ ...confirming, open: false });
            fire(confirming.request);
          }}
        />
      )}
    </SectionCard>
  );
}

/** Asks before a write's Test: it would change real data. Shows the method, the path and the body it would send. */
function ConfirmWrite({ request, open, onConfirm, onCancel }: { request: ApiCall; open: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTexts();
  return (
    <ConfirmDialog
      open={open}
      title={t('apiTools.confirm.title', { method: request.method, path: request.path })}
      confirmLabel={t('apiTools.confirm.send')}
      destructive
      onCancel={onCancel}
      onConfirm={onConfirm}
      message={
        <Stack gap="3" data-testid="confirm-write">
          <Text>{t('apiTools.confirm.body')}</Text>
          <Flex gap="2" align="center" minW="0">
            <MethodBadge method={request.method} />
            <Code wordBreak="break-all" data-testid="confirm-path">{request.path}</Code>
          </Flex>
          <Box>
            <Text fontSize="sm" fontWeight="semibold" mb="1">{t('apiTools.requestBody')}</Text>
            {request.body === undefined ? <Text fontSize="sm" color="fg.muted">{t('apiTools.noRequestBody')}</Text> : <JsonBlock value={request.body} maxH="48" testId="confirm-body" />}
          </Box>
        </Stack>
      }
    />
  );
}

function EndpointCard({ endpoint, busy, onTest }: { endpoint: CatalogueEndpoint; busy: boolean; onTest: () => void }) {
  const { t } = useTexts();
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" borderRadius="md" p="3" minW="0" data-testid="endpoint" data-operation-id={endpoint.id}>
      <Flex gap="2" align="center" justify="space-between" wrap="wrap">
        <Flex gap="2" align="center" minW="0" flex="1" wrap="wrap">
          <MethodBadge method={endpoint.method} />
          <Text fontFamily="mono" fontSize="sm" wordBreak="break-all" data-testid="endpoint-path">{endpoint.path}</Text>
          {endpoint.access === 'public' && <Badge variant="outline" size="sm">{t('apiTools.access.public')}</Badge>}
        </Flex>
        {endpoint.untestable ? (
          <Text fontSize="xs" color="fg.muted" data-testid="untestable">{t(`apiTools.untestable.${endpoint.untestable}`)}</Text>
        ) : (
          <Button size="xs" variant="outline" colorPalette="blue" onClick={onTest} loading={busy} aria-label={t('apiTools.testLabel', { method: endpoint.method, path: endpoint.path })}>
            {t('apiTools.test')}
          </Button>
        )}
      </Flex>
      <Text fontSize="sm" color="fg.muted" mt="1">{endpoint.summary}</Text>
      <Parameters parameters={endpoint.parameters} />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="3" mt="3">
        <LabelledJson label={t('apiTools.requestBody')} value={endpoint.requestExample} empty={t('apiTools.noRequestBody')} maxH="48" />
        <LabelledJson label={t('apiTools.response')} value={endpoint.responseExample} maxH="48" />
      </SimpleGrid>
    </Box>
  );
}

const exampleText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function Parameters({ parameters }: { parameters: readonly CatalogueParameter[] }) {
  const { t } = useTexts();
  return (
    <Box mt="3" fontSize="xs">
      <Text fontWeight="semibold" mb="1">{t('apiTools.parameters')}</Text>
      {parameters.length === 0 ? (
        <Text color="fg.muted">{t('apiTools.noParameters')}</Text>
      ) : (
        <Stack as="ul" gap="1" data-testid="parameters">
          {parameters.map((parameter) => (
            <Flex as="li" key={`${parameter.in} ${parameter.name}`} gap="2" align="center" wrap="wrap" listStyleType="none">
              <Code size="sm">{parameter.name}</Code>
              <Text color="fg.muted">{parameter.in}{parameter.type ? ` · ${parameter.type}` : ''}</Text>
              {parameter.required && <Badge size="xs" variant="subtle" colorPalette="orange">{t('apiTools.parameter.required')}</Badge>}
              {parameter.example !== undefined && <Text color="fg.muted" wordBreak="break-all">{t('apiTools.parameter.example', { value: exampleText(parameter.example) })}</Text>}
            </Flex>
          ))}
        </Stack>
      )}
    </Box>
  );
}
