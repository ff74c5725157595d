import { Badge, Box, Button, Checkbox, Code, DataList, Flex, Input, NativeSelect, Stack, Switch, Text } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import { allFilled, flowMatchTypeList, parsePriority, type ChatFlow, type FlowMapping, type FlowMatchType, type FlowTestResult } from './api';
import { useCreateFlow, useCreateMapping, useDeleteFlow, useDeleteMapping, useTestFlowRouting, useUpdateMapping } from './mutations';
import type { Editing } from './PromptsCard';
import { useFlows, useMappings } from './queries';
import { AdminCard, contained, ListState, RowActions, useFailureToast, useValidationToast } from './shared';

/** Document 2 §2.1 Chat Flows: a table with create and delete; deleting asks with the browser's confirm. */
export function FlowsCard() {
  const { t, format } = useTexts();
  const flows = useFlows();
  const failed = useFailureToast();
  const [creating, setCreating] = useState(false);
  const rows = flows.data?.data ?? [];
  const remove = useDeleteFlow({
    onSuccess: (_reply, name) => notify({ title: t('aiAdmin.flows.deleted'), description: t('aiAdmin.flows.deletedBody', { name }), type: 'success' }),
    onError: failed('aiAdmin.flows.deleteFailed'),
  });
  const askDelete = (flow: ChatFlow) => {
    if (remove.isPending) return;
    if (window.confirm(t('aiAdmin.flows.confirmDelete', { name: flow.name }))) remove.mutate(flow.name);
  };
  const columns: Column<ChatFlow>[] = [
    { key: 'name', header: t('aiAdmin.flows.name'), cell: (row) => <Code size="sm">{row.name}</Code> },
    { key: 'flowId', header: t('aiAdmin.flows.flowId'), cell: (row) => <Code size="sm" wordBreak="break-all">{row.flowId}</Code> },
    { key: 'description', header: t('aiAdmin.flows.description'), cell: (row) => row.description ?? <Text as="span" color="fg.muted">{t('aiAdmin.none')}</Text>, cellProps: { minW: '40' } },
    { key: 'createdAt', header: t('aiAdmin.flows.createdAt'), cell: (row) => format.dateTime(row.createdAt), cellProps: { whiteSpace: 'nowrap', fontSize: 'sm' } },
    {
      key: 'actions',
      header: <Text srOnly>{t('aiAdmin.actions')}</Text>,
      headerProps: contained,
      cell: (row) => <RowActions name={row.name} onDelete={() => askDelete(row)} busy={remove.isPending && remove.variables === row.name} />,
    },
  ];
  return (
    <AdminCard id="chat-flows" subtitle={t('aiAdmin.flows.subtitle')} actions={<Button size="sm" colorPalette="blue" onClick={() => setCreating(true)}>{t('aiAdmin.flows.add')}</Button>}>
      <ListState query={flows} failed={t('aiAdmin.flows.fetchFailed')} empty={t('aiAdmin.flows.empty')} count={rows.length}>
        <DataTable columns={columns} rows={rows} rowKey={(row) => String(row.id)} rowProps={(row) => ({ 'data-flow': row.name })} caption={t('aiAdmin.flows.title')} testId="flows-table" />
      </ListState>
      {creating && <FlowDialog onClose={() => setCreating(false)} />}
    </AdminCard>
  );
}

/** Document 2 §5: name and flow ID required (trimmed), the description optional. */
function FlowDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const invalid = useValidationToast();
  const [name, setName] = useState('');
  const [flowId, setFlowId] = useState('');
  const [description, setDescription] = useState('');
  const create = useCreateFlow({
    onSuccess: (reply) => {
      notify({ title: t('aiAdmin.flows.created'), description: t('aiAdmin.flows.createdBody', { name: reply.data.name, flowId: reply.data.flowId }), type: 'success' });
      onClose();
    },
    onError: failed('aiAdmin.flows.createFailed'),
  });
  const submit = () => {
    if (create.isPending) return;
    if (!allFilled(name, flowId)) return invalid('aiAdmin.flows.required');
    create.mutate({ name: name.trim(), flowId: flowId.trim(), description: description.trim() || null });
  };
  return (
    <Dialog
      open
      onClose={() => !create.isPending && onClose()}
      title={t('aiAdmin.flows.createTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={create.isPending}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="flow-form" loading={create.isPending} loadingText={t('common.saving')}>{t('aiAdmin.create')}</Button>
        </>
      }
    >
      <Form id="flow-form" onSubmit={submit} noValidate gap="4">
        <FormField label={t('aiAdmin.flows.name')} helper={t('aiAdmin.flows.nameHelper')} required>
          <Input name="name" value={name} onChange={(event) => setName(event.target.value)} maxLength={100} autoComplete="off" spellCheck={false} fontFamily="mono" />
        </FormField>
        <FormField label={t('aiAdmin.flows.flowId')} helper={t('aiAdmin.flows.flowIdHelper')} required>
          <Input name="flowId" value={flowId} onChange={(event) => setFlowId(event.target.value)} maxLength={200} autoComplete="off" spellCheck={false} fontFamily="mono" />
        </FormField>
        <FormField label={t('aiAdmin.flows.descriptionOptional')}>
          <Input name="description" value={description} onChange={(event) => setDescription(event.target.value)} maxLength={1000} autoComplete="off" />
        </FormField>
      </Form>
    </Dialog>
  );
}

/**
 * Document 2 §2.1/§4 Flow Mappings: the table's enabled switch only shows the state (it is changed
 * with the checkbox of the edit dialog); create, edit, and delete with the browser's confirm.
 */
export function MappingsCard() {
  const { t } = useTexts();
  const mappings = useMappings();
  const failed = useFailureToast();
  const [editing, setEditing] = useState<Editing<FlowMapping>>(null);
  const rows = mappings.data?.data ?? [];
  const remove = useDeleteMapping({
    onSuccess: (_reply, id) => {
      const matchValue = rows.find((row) => row.id === id)?.matchValue ?? `#${id}`;
      notify({ title: t('aiAdmin.mappings.deleted'), description: t('aiAdmin.mappings.deletedBody', { matchValue }), type: 'success' });
    },
    onError: failed('aiAdmin.mappings.deleteFailed'),
  });
  const askDelete = (mapping: FlowMapping) => {
    if (remove.isPending) return;
    if (window.confirm(t('aiAdmin.mappings.confirmDelete', { matchValue: mapping.matchValue }))) remove.mutate(mapping.id);
  };
  const columns: Column<FlowMapping>[] = [
    { key: 'priority', header: t('aiAdmin.mappings.priority'), cell: (row) => row.priority, cellProps: { textAlign: 'end' }, headerProps: { textAlign: 'end' } },
    { key: 'matchType', header: t('aiAdmin.mappings.matchType'), cell: (row) => <Badge colorPalette={row.matchType === 'exact' ? 'purple' : 'blue'}>{t(`aiAdmin.mappings.match.${row.matchType}`)}</Badge> },
    { key: 'matchValue', header: t('aiAdmin.mappings.matchValue'), cell: (row) => row.matchValue, cellProps: { minW: '32' } },
    { key: 'flowNamespace', header: t('aiAdmin.mappings.flowNamespace'), cell: (row) => <Code size="sm" wordBreak="break-all">{row.flowNamespace}</Code> },
    { key: 'flowName', header: t('aiAdmin.mappings.flowName'), cell: (row) => row.flowName ?? <Text as="span" color="fg.muted">{t('aiAdmin.none')}</Text> },
    {
      key: 'enabled',
      header: t('aiAdmin.mappings.enabled'),
      cellProps: contained,
      cell: (row) => (
        <Switch.Root size="sm" checked={row.enabled} readOnly data-testid="mapping-enabled">
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label srOnly>{t('aiAdmin.mappings.enabledLabel', { name: row.matchValue })}</Switch.Label>
        </Switch.Root>
      ),
    },
    {
      key: 'actions',
      header: <Text srOnly>{t('aiAdmin.actions')}</Text>,
      headerProps: contained,
      cell: (row) => <RowActions name={row.matchValue} onEdit={() => setEditing({ item: row })} onDelete={() => askDelete(row)} busy={remove.isPending && remove.variables === row.id} />,
    },
  ];
  return (
    <AdminCard id="flow-mappings" subtitle={t('aiAdmin.mappings.subtitle')} actions={<Button size="sm" colorPalette="blue" onClick={() => setEditing({ item: null })}>{t('aiAdmin.mappings.add')}</Button>}>
      <ListState query={mappings} failed={t('aiAdmin.mappings.fetchFailed')} empty={t('aiAdmin.mappings.empty')} count={rows.length}>
        <DataTable columns={columns} rows={rows} rowKey={(row) => String(row.id)} rowProps={(row) => ({ 'data-mapping': row.matchValue })} caption={t('aiAdmin.mappings.title')} testId="mappings-table" />
      </ListState>
      {editing && <MappingDialog mapping={editing.item} onClose={() => setEditing(null)} />}
    </AdminCard>
  );
}

/** Create mode without a mapping, edit mode with one; the saved flows are offered for the namespace and the name. */
function MappingDialog({ mapping, onClose }: { mapping: FlowMapping | null; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const invalid = useValidationToast();
  const flows = useFlows().data?.data ?? [];
  const [matchType, setMatchType] = useState<FlowMatchType>(mapping?.matchType ?? 'keyword');
  const [matchValue, setMatchValue] = useState(mapping?.matchValue ?? '');
  const [flowNamespace, setFlowNamespace] = useState(mapping?.flowNamespace ?? '');
  const [flowName, setFlowName] = useState(mapping?.flowName ?? '');
  const [priority, setPriority] = useState(String(mapping?.priority ?? 0));
  const [enabled, setEnabled] = useState(mapping?.enabled ?? true);
  const saved = (title: string) => (reply: { data: FlowMapping }) => {
    notify({ title, description: t('aiAdmin.mappings.savedBody', { matchValue: reply.data.matchValue, flowNamespace: reply.data.flowNamespace }), type: 'success' });
    onClose();
  };
  const create = useCreateMapping({ onSuccess: saved(t('aiAdmin.mappings.created')), onError: failed('aiAdmin.mappings.createFailed') });
  const update = useUpdateMapping({ onSuccess: saved(t('aiAdmin.mappings.updated')), onError: failed('aiAdmin.mappings.updateFailed') });
  const busy = create.isPending || update.isPending;
  const submit = () => {
    if (busy) return;
    if (!allFilled(matchValue, flowNamespace)) return invalid('aiAdmin.mappings.required');
    const body = { matchType, matchValue: matchValue.trim(), flowNamespace: flowNamespace.trim(), flowName: flowName.trim() || null, priority: parsePriority(priority), enabled };
    if (mapping) update.mutate({ id: mapping.id, body });
    else create.mutate(body);
  };
  return (
    <Dialog
      open
      onClose={() => !busy && onClose()}
      title={mapping ? t('aiAdmin.mappings.editTitle') : t('aiAdmin.mappings.createTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="mapping-form" loading={busy} loadingText={t('common.saving')}>{mapping ? t('aiAdmin.saveChanges') : t('aiAdmin.create')}</Button>
        </>
      }
    >
      <Form id="mapping-form" onSubmit={submit} noValidate gap="4">
        <FormField label={t('aiAdmin.mappings.matchType')}>
          <NativeSelect.Root>
            <NativeSelect.Field name="matchType" value={matchType} onChange={(event) => setMatchType(event.target.value as FlowMatchType)}>
              {flowMatchTypeList.map((type) => <option key={type} value={type}>{t(`aiAdmin.mappings.match.${type}`)}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        <FormField label={t('aiAdmin.mappings.matchValue')} required>
          <Input name="matchValue" value={matchValue} onChange={(event) => setMatchValue(event.target.value)} maxLength={200} autoComplete="off" />
        </FormField>
        <FormField label={t('aiAdmin.mappings.flowNamespace')} helper={t('aiAdmin.mappings.namespaceHelper')} required>
          <Input name="flowNamespace" value={flowNamespace} onChange={(event) => setFlowNamespace(event.target.value)} list="saved-flow-ids" maxLength={200} autoComplete="off" spellCheck={false} fontFamily="mono" />
        </FormField>
        <FormField label={t('aiAdmin.mappings.flowNameOptional')}>
          <Input name="flowName" value={flowName} onChange={(event) => setFlowName(event.target.value)} list="saved-flow-names" maxLength={200} autoComplete="off" spellCheck={false} />
        </FormField>
        <datalist id="saved-flow-ids">{flows.map((flow) => <option key={flow.id} value={flow.flowId}>{flow.name}</option>)}</datalist>
        <datalist id="saved-flow-names">{flows.map((flow) => <option key={flow.id} value={flow.name} />)}</datalist>
        <FormField label={t('aiAdmin.mappings.priority')} helper={t('aiAdmin.mappings.priorityHelper')}>
          <Input name="priority" type="number" inputMode="numeric" step={1} value={priority} onChange={(event) => setPriority(event.target.value)} maxW="32" />
        </FormField>
        <Box>
          <Checkbox.Root checked={enabled} onCheckedChange={(event) => setEnabled(event.checked === true)}>
            <Checkbox.HiddenInput name="enabled" />
            <Checkbox.Control />
            <Checkbox.Label>{t('aiAdmin.mappings.enabled')}</Checkbox.Label>
          </Checkbox.Root>
          <Text fontSize="xs" color="fg.muted" mt="1">{t('aiAdmin.mappings.enabledHelper')}</Text>
        </Box>
      </Form>
    </Dialog>
  );
}

/** Document 2 §2.1 Flow Routing Tester: a product name in, the mapping it is routed to out. */
export function FlowTesterCard() {
  const { t } = useTexts();
  const failed = useFailureToast();
  const invalid = useValidationToast();
  const [productName, setProductName] = useState('');
  const [result, setResult] = useState<{ productName: string; result: FlowTestResult } | null>(null);
  const test = useTestFlowRouting({
    onSuccess: (reply, tested) => {
      setResult({ productName: tested, result: reply });
      notify({
        title: t('aiAdmin.tester.done'),
        description: reply.matched && reply.flowNamespace ? t('aiAdmin.tester.routedTo', { flowNamespace: reply.flowNamespace }) : t('aiAdmin.tester.noMatchBody'),
        type: 'success',
      });
    },
    onError: (error) => {
      setResult(null);
      failed('aiAdmin.tester.failed')(error);
    },
  });
  const submit = () => {
    if (test.isPending) return;
    if (!allFilled(productName)) return invalid('aiAdmin.tester.required');
    test.mutate(productName.trim());
  };
  return (
    <AdminCard id="flow-tester" subtitle={t('aiAdmin.tester.subtitle')}>
      <Stack gap="4">
        <Form onSubmit={submit} noValidate aria-label={t('aiAdmin.tester.title')}>
          <Flex gap="2" align="flex-end" wrap="wrap">
            <Box flex="1" minW="48">
              <FormField label={t('aiAdmin.tester.product')}>
                <Input name="productName" value={productName} onChange={(event) => setProductName(event.target.value)} maxLength={500} autoComplete="off" />
              </FormField>
            </Box>
            <Button type="submit" colorPalette="blue" loading={test.isPending} loadingText={t('aiAdmin.tester.testing')}>{t('aiAdmin.tester.test')}</Button>
          </Flex>
        </Form>
        {result && <FlowTestResultView productName={result.productName} result={result.result} />}
      </Stack>
    </AdminCard>
  );
}

function FlowTestResultView({ productName, result }: { productName: string; result: FlowTestResult }) {
  const { t } = useTexts();
  const none = <Text as="span" color="fg.muted">{t('aiAdmin.none')}</Text>;
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" data-testid="flow-test-result" role="status">
      <Flex gap="2" align="center" wrap="wrap" mb="2">
        <Text fontWeight="medium" wordBreak="break-word">{t('aiAdmin.tester.resultFor', { productName })}</Text>
        <Badge colorPalette={result.matched ? 'green' : 'gray'} data-testid="flow-test-matched">{result.matched ? t('aiAdmin.tester.matched') : t('aiAdmin.tester.notMatched')}</Badge>
      </Flex>
      {result.matched ? (
        <DataList.Root orientation="horizontal" size="sm">
          <ResultRow label={t('aiAdmin.mappings.matchType')} testId="flow-test-type">{result.matchType ? t(`aiAdmin.mappings.match.${result.matchType}`) : none}</ResultRow>
          <ResultRow label={t('aiAdmin.mappings.flowNamespace')} testId="flow-test-namespace">{result.flowNamespace ? <Code size="sm" wordBreak="break-all">{result.flowNamespace}</Code> : none}</ResultRow>
          <ResultRow label={t('aiAdmin.mappings.matchValue')} testId="flow-test-value">{result.mapping?.matchValue ?? none}</ResultRow>
          <ResultRow label={t('aiAdmin.mappings.priority')} testId="flow-test-priority">{result.mapping ? String(result.mapping.priority) : none}</ResultRow>
          <ResultRow label={t('aiAdmin.mappings.flowName')} testId="flow-test-name">{result.mapping?.flowName ?? none}</ResultRow>
        </DataList.Root>
      ) : (
        <Text fontSize="sm" color="fg.muted">{t('aiAdmin.tester.noMatchBody')}</Text>
      )}
    </Box>
  );
}

function ResultRow({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel minW="32">{label}</DataList.ItemLabel>
      <DataList.ItemValue minW="0" data-testid={testId}>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}
